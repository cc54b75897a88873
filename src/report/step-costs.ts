import { column, orderBy } from '../core/columns.js';

/** Whose a step is: a model under test's, a judge's, or no trial's of the run. */
type Owner = { model: string } | { judge: true } | undefined;

/**
 * The cost of every step of a run (all its calls), kept in flat arrays and added up in the order
 * the steps' newest calls were stored, as the report always has: the sums are the same to the last bit.
 */
export interface StepCosts {
  /** Summed per model under test. */
  byModel(): Map<string, number>;
  /** Every step, judges' included, but a model's whose `skip` says so. */
  total(skip: (model: string) => boolean): number;
  /** The judges' steps. */
  judges(): number;
}

export function stepCosts(): { add(seq: number, costUsd: number, owner: Owner): void; sorted(): StepCosts } {
  const seqColumn = column('f64');
  const costColumn = column('f64');
  // 0: no trial of the run, 1: a judge, 2 + k: models[k].
  const ownerColumn = column('u32');
  const models: string[] = [];
  const modelIndex = new Map<string, number>();
  return {
    add(seq, costUsd, owner) {
      seqColumn.push(seq);
      costColumn.push(costUsd);
      if (owner === undefined) ownerColumn.push(0);
      else if ('judge' in owner) ownerColumn.push(1);
      else {
        let k = modelIndex.get(owner.model);
        if (k === undefined) modelIndex.set(owner.model, (k = models.push(owner.model) - 1));
        ownerColumn.push(2 + k);
      }
    },
    sorted() {
      const costs = costColumn.view();
      const owners = ownerColumn.view();
      const order = orderBy(seqColumn.view());
      const fold = (f: (sum: number, cost: number, owner: number) => number) => {
        let sum = 0;
        for (const k of order) sum = f(sum, costs[k]!, owners[k]!);
        return sum;
      };
      return {
        byModel() {
          const out = new Map<string, number>();
          for (const k of order) {
            const o = owners[k]!;
            if (o >= 2) out.set(models[o - 2]!, (out.get(models[o - 2]!) ?? 0) + costs[k]!);
          }
          return out;
        },
        total: skip => fold((sum, cost, o) => sum + (o >= 2 && skip(models[o - 2]!) ? 0 : cost)),
        judges: () => fold((sum, cost, o) => (o === 1 ? sum + cost : sum)),
      };
    },
  };
}
