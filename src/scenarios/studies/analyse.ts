import type { Judgment } from '../../core/judgment.js';
import { meanInterval } from '../../stats/inference/mean-interval.js';
import { SCENARIO_INTERVAL, type Estimate } from '../analysis/estimate.js';
import { agreementRow, expertProfiles, type AgreementRow, type Profile } from '../analysis/human.js';
import { mean, sampleVariance, type ScenarioRunData } from '../analysis/stored.js';

/** A judgment as a profile: its score (key null) and each dimension score, on [0, 1]. */
function profileOf(j: Judgment): Profile | undefined {
  if (j.value === null) return undefined;
  return new Map<string | null, number>([[null, j.value], ...Object.entries((j.details?.dimensions ?? {}) as Record<string, number>)]);
}

/** Mean of the sample variances (n - 1) of the groups that have at least two values; null when none has. */
function meanVariance(groups: Iterable<number[]>): { variance: number | null; dialogues: number } {
  const vs = [...groups].filter(g => g.length >= 2).map(sampleVariance);
  return { variance: vs.length ? mean(vs) : null, dialogues: vs.length };
}

/** One row of the stability table (Elmes+ Table 2). */
export interface StabilityRow {
  judge: string;
  /** The model under test. */
  model: string;
  /** A rubric dimension; null for the score. */
  dimension: string | null;
  /** Dialogues with at least two conforming repeats, and the mean repeats per dialogue. */
  dialogues: number;
  repeats: number;
  /** Per dialogue the variance of the judge's repeats, averaged over dialogues. */
  variance: number | null;
  /** Per dialogue the variance between the experts, averaged over the same model's dialogues; null without two experts. */
  expertVariance: number | null;
  expertDialogues: number;
}

/** Repeat variance per judge x model under test x dimension, beside the experts' own variance. */
export function stabilityRows(data: ScenarioRunData, judgments: ReadonlyArray<Judgment>): StabilityRow[] {
  const modelOf = new Map(data.trials.map(t => [t.id, t.modelAlias]));
  const experts = expertProfiles(data);
  const cells = new Map<string, { judge: string; model: string; dimension: string | null; byDialogue: Map<string, number[]> }>();
  for (const j of judgments) {
    const p = profileOf(j);
    const model = modelOf.get(j.targetTrialId);
    if (!p || model === undefined) continue;
    for (const [dimension, v] of p) {
      const key = JSON.stringify([j.rater.alias, model, dimension]);
      const cell = cells.get(key) ?? cells.set(key, { judge: j.rater.alias, model, dimension, byDialogue: new Map() }).get(key)!;
      (cell.byDialogue.get(j.targetTrialId) ?? cell.byDialogue.set(j.targetTrialId, []).get(j.targetTrialId)!).push(v);
    }
  }
  return [...cells.values()].map(c => {
    const own = meanVariance(c.byDialogue.values());
    const expert = meanVariance([...c.byDialogue.keys()].map(id => (experts?.raters ?? [])
      .map(r => experts!.byRater.get(r)!.get(id)?.get(c.dimension)).filter((v): v is number => v !== undefined)));
    return {
      judge: c.judge, model: c.model, dimension: c.dimension, dialogues: own.dialogues,
      repeats: mean([...c.byDialogue.values()].map(g => g.length)), variance: own.variance,
      expertVariance: expert.variance, expertDialogues: expert.dialogues,
    };
  });
}

/** One judge variant against the experts, on one dimension. */
export interface AblationRow extends AgreementRow {
  variant: string;
  /** Mean |judge - expert mean| on [0, 1], with its bootstrap interval. */
  meanAbsDeviation: Estimate;
}

/**
 * Each variant's judgments (every judge and repeat averaged per dialogue) against the experts'
 * mean: mean deviation, mean absolute deviation, Kendall tau-b and ICC(2,1), per dimension.
 * Empty when no expert scores are imported.
 */
export function ablationRows(data: ScenarioRunData, byVariant: ReadonlyMap<string, ReadonlyArray<Judgment>>): AblationRow[] {
  const experts = expertProfiles(data);
  if (!experts) return [];
  const rows: AblationRow[] = [];
  for (const [variant, judgments] of byVariant) {
    const perDialogue = new Map<string, Profile[]>();
    for (const j of judgments) {
      const p = profileOf(j);
      if (p) (perDialogue.get(j.targetTrialId) ?? perDialogue.set(j.targetTrialId, []).get(j.targetTrialId)!).push(p);
    }
    for (const key of experts.keys) {
      const pairs: Array<[number, number]> = [];
      for (const [id, h] of experts.expert) {
        const own = (perDialogue.get(id) ?? []).map(p => p.get(key)).filter((v): v is number => v !== undefined);
        const e = h.get(key);
        if (own.length && e !== undefined) pairs.push([mean(own), e]);
      }
      rows.push({ ...agreementRow(variant, key, pairs), variant, meanAbsDeviation: meanInterval(pairs.map(([j, h]) => Math.abs(j - h)), SCENARIO_INTERVAL) });
    }
  }
  return rows;
}
