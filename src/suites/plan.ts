import { deriveSeed } from '../engine/seed.js';
import type { TrialSource } from '../engine/trial-source.js';
import { ConfigError, canonicalJson, sha256Hex, type ChatParams, type Item, type ModelSpec, type TestDefinition, type Trial, type VersionedItem } from '../core/index.js';

/** Step kind of item trials. */
export const ITEM_STEP = 'item';

/** What planning needs of an item: its version, test and id, and where it was read (for errors), not its body. */
export type PlannedItem = Pick<VersionedItem, 'hash' | 'file' | 'line'> & { item: Pick<Item, 'id' | 'test'> };

export interface PlanInput {
  runId: string;
  items: ReadonlyArray<PlannedItem>;
  models: ModelSpec[];
  tests: ReadonlyMap<string, TestDefinition>;
  repeats: number;
  seed: number;
  params: ChatParams;
  /** Whether a model can answer an item at all (default: always). Pairs it cannot are not planned. */
  applicable?: (model: ModelSpec, item: PlannedItem) => boolean;
}

/**
 * Trials = item x model x repeat, deduplicated by item content and ordered deterministically:
 * items are shuffled by the run seed (so a capped or interrupted run has sampled every test
 * evenly), then every model and repeat of an item follow one another.
 */
export function planTrials(input: PlanInput): Trial[] {
  const table = planTrialTable(input);
  return Array.from({ length: table.size }, (_, k) => table.at(k));
}

/**
 * The plan of planTrials as a trial source: per trial its id and a few numbers (item, model,
 * repeat, seed), per item its id and hash, so a plan of 200,000 trials holds a few typed columns
 * instead of 200,000 objects, and each trial is made when the engine takes it.
 */
export function planTrialTable(input: PlanInput): TrialSource {
  const { runId, models, tests, repeats, seed, params } = input;
  if (!Number.isInteger(repeats) || repeats < 1) throw new ConfigError([{ field: '--repeats', message: 'must be a whole number >= 1' }]);
  const missing = [...new Set(input.items.map(v => v.item.test))].filter(t => !tests.has(t));
  if (missing.length) {
    throw new ConfigError(missing.map(t => {
      const where = input.items.find(v => v.item.test === t)!;
      return { file: where.file, line: where.line, field: 'test', message: `unknown test "${t}"; known: ${[...tests.keys()].sort().join(', ')}` };
    }));
  }
  const unique = new Map<string, PlannedItem>();
  for (const v of input.items) if (!unique.has(v.hash)) unique.set(v.hash, v);
  const ordered = [...unique.values()]
    .map(v => ({ v, key: deriveSeed(seed, v.hash) }))
    .sort((a, b) => a.key - b.key || (a.v.hash < b.v.hash ? -1 : 1))
    .map(x => x.v);
  return trialTable({ runId, ordered, models, tests, repeats, seed, paramsJson: canonicalJson(params), applicable: input.applicable ?? (() => true) });
}

/**
 * The table of planTrialTable over items in plan order. A function of its own: the table's
 * closures share one scope, which must not hold the plan input (every plan entry would stay
 * alive for the whole run).
 */
function trialTable(o: {
  runId: string; ordered: ReadonlyArray<PlannedItem>; models: ReadonlyArray<ModelSpec>; tests: ReadonlyMap<string, TestDefinition>;
  repeats: number; seed: number; paramsJson: string; applicable: NonNullable<PlanInput['applicable']>;
}): TrialSource {
  const { runId, models, repeats } = o;
  // Per item (in plan order): its hash, id and test; per trial: its id, item, model, repeat and
  // seed. Plain loops: a closure here naming `o` would put it, and every plan entry, in that scope.
  const n = o.ordered.length;
  const itemHash: string[] = new Array(n);
  const itemId: string[] = new Array(n);
  const itemTest: TestDefinition[] = new Array(n);
  const most = n * models.length * repeats;
  const ids: string[] = [];
  const itemOf = new Uint32Array(most);
  const modelOf = new Uint32Array(most);
  const repeatOf = new Uint32Array(most);
  const seedOf = new Uint32Array(most);
  const seeds = new Array<number>(repeats);
  for (let i = 0; i < n; i++) {
    const v = o.ordered[i]!;
    const test = o.tests.get(v.item.test)!;
    itemHash[i] = v.hash;
    itemId[i] = v.item.id;
    itemTest[i] = test;
    // The same item and repeat get the same seed for every model, so models face the same draw.
    for (let repeat = 0; repeat < repeats; repeat++) seeds[repeat] = deriveSeed(o.seed, v.hash, repeat);
    for (let m = 0; m < models.length; m++) {
      const model = models[m]!;
      if (!o.applicable(model, v)) continue;
      for (let repeat = 0; repeat < repeats; repeat++) {
        const k = ids.length;
        ids.push(trialId({ itemHash: v.hash, model: model.spec, test: test.name, promptVersion: test.promptVersion, repeat, seed: seeds[repeat]! }, o.paramsJson));
        itemOf[k] = i;
        modelOf[k] = m;
        repeatOf[k] = repeat;
        seedOf[k] = seeds[repeat]!;
      }
    }
  }
  let positions: Map<string, number> | undefined;
  return {
    size: ids.length,
    idAt: k => ids[k]!,
    at(k) {
      const i = itemOf[k]!;
      const test = itemTest[i]!;
      const model = models[modelOf[k]!]!;
      return {
        id: ids[k]!, runId, index: k, itemId: itemId[i]!, itemHash: itemHash[i]!, test: test.name,
        modelAlias: model.alias, modelSpec: model.spec, promptVersion: test.promptVersion, repeat: repeatOf[k]!, seed: seedOf[k]!,
        kind: ITEM_STEP, variant: 'default',
      };
    },
    positionOf(id) {
      positions ??= new Map(ids.map((x, k) => [x, k]));
      return positions.get(id);
    },
  };
}

/**
 * A trial's id: the content hash of what it is (`contentHash` of these fields and the params),
 * written out in canonical key order by hand, since planning hashes every trial and the params'
 * JSON is the same for all of them.
 */
export function trialId(t: { itemHash: string; model: string; test: string; promptVersion: string; repeat: number; seed: number }, paramsJson: string): string {
  const q = JSON.stringify;
  return sha256Hex(`{"itemHash":${q(t.itemHash)},"model":${q(t.model)},"params":${paramsJson},"promptVersion":${q(t.promptVersion)},"repeat":${q(t.repeat)},"seed":${q(t.seed)},"test":${q(t.test)}}`, 16);
}
