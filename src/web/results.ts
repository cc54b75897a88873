import type { Store, Trial } from '../core/index.js';
import { meanInterval } from '../stats/inference/mean-interval.js';

/** One line of a run's results: a model's mean on one measure, over items, with its interval and n. */
export interface ResultRow {
  model: string;
  /** The scorer's name (item tests) or `judge/variant` (rubric judgments). */
  measure: string;
  mean: number | null;
  low: number | null;
  high: number | null;
  /** Items (or tasks) averaged; repeats of one item are averaged first. */
  n: number;
  /** Scores or judgments that were unscored (excluded from the mean, never counted as 0). */
  unscored: number;
}

export const RESULT_RESAMPLES = 1000;
export const RESULT_SEED = 20261201;

/**
 * A run's results read from its stored scores and judgments alone, the same way for every kind
 * of run: the kind decides what it stores, this only averages per item and bootstraps over items.
 */
export async function runResults(store: Store, runId: string): Promise<ResultRow[]> {
  const [trials, scores, judgments] = await Promise.all([store.listTrials(runId), store.listScores(runId), store.listJudgments(runId)]);
  const byId = new Map<string, Trial>(trials.map(t => [t.id, t]));
  const groups = new Map<string, { model: string; measure: string; perItem: Map<string, number[]>; unscored: number }>();
  const add = (trial: Trial | undefined, measure: string, value: number | null) => {
    if (!trial) return;
    const key = `${trial.modelAlias}\u0000${measure}`;
    const g = groups.get(key) ?? groups.set(key, { model: trial.modelAlias, measure, perItem: new Map(), unscored: 0 }).get(key)!;
    if (value === null || !Number.isFinite(value)) { g.unscored += 1; return; }
    const item = `${trial.test}\u0000${trial.itemId}`;
    (g.perItem.get(item) ?? g.perItem.set(item, []).get(item)!).push(value);
  };
  // A scorer that marks several tests (exact on exercises and on grammar forms) is one measure per
  // test: items of different tests are not averaged together, as the CLI's report keeps them apart.
  const testsOf = new Map<string, Set<string>>();
  for (const s of scores) {
    const t = byId.get(s.trialId);
    if (t) (testsOf.get(s.scorer.name) ?? testsOf.set(s.scorer.name, new Set()).get(s.scorer.name)!).add(t.test);
  }
  const measureOf = (scorer: string, t: Trial | undefined) => (t && (testsOf.get(scorer)?.size ?? 0) > 1 ? `${scorer} (${t.test})` : scorer);
  for (const s of scores) add(byId.get(s.trialId), measureOf(s.scorer.name, byId.get(s.trialId)), s.value);
  for (const j of judgments) add(byId.get(j.targetTrialId), `${j.rater.alias}/${j.promptVariant}`, j.value);
  const rows = [...groups.values()].map(g => {
    const means = [...g.perItem.values()].map(v => v.reduce((a, b) => a + b, 0) / v.length);
    return { model: g.model, measure: g.measure, ...meanInterval(means, { resamples: RESULT_RESAMPLES, seed: RESULT_SEED }), unscored: g.unscored };
  });
  return rows.sort((a, b) => a.measure.localeCompare(b.measure) || a.model.localeCompare(b.model));
}

/** Per model, the sum and number of stored scores of its own trials (judges' trials left out): where a run page's running mean starts. */
export async function scoresSoFar(store: Store, runId: string): Promise<Array<{ model: string; sum: number; n: number }>> {
  const [trials, scores] = await Promise.all([store.listTrials(runId), store.listScores(runId)]);
  const own = new Map(trials.filter(t => !t.target).map(t => [t.id, t.modelAlias]));
  const out = new Map<string, { model: string; sum: number; n: number }>();
  for (const s of scores) {
    const model = own.get(s.trialId);
    if (model === undefined || s.value === null || !Number.isFinite(s.value)) continue;
    const m = out.get(model) ?? out.set(model, { model, sum: 0, n: 0 }).get(model)!;
    m.sum += s.value;
    m.n += 1;
  }
  return [...out.values()];
}
