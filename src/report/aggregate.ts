import { GROUP_FIELDS, type CallRecord, type Item, type Score, type ScorerRef, type Trial } from '../core/index.js';
import { latestCalls } from '../engine/history.js';

/** Per-item result of one model on one test: the mean of the headline scorer over the item's repeats. */
export interface ItemResult {
  model: string;
  test: string;
  item: Item;
  itemHash: string;
  /** Mean over scored repeats, or null when no repeat could be scored. */
  value: number | null;
  /** Scored values of each repeat, in repeat order. */
  repeats: number[];
  /** Trials of this item that failed (provider errors); they are not in `repeats`. */
  failed: number;
  unscored: number;
  costUsd: number;
  /** The newest answer text, for failure examples. */
  lastAnswer: string | undefined;
  lastReason: string | undefined;
  scorer: ScorerRef | undefined;
}

/**
 * Join a run's trials, calls and scores into per-item results. The headline score of a test is its
 * first scorer's (the test definition lists it first); other scorers stay in the store.
 */
export function itemResults(trials: Trial[], items: Map<string, Item>, calls: CallRecord[], scores: Score[], headline: Map<string, string>): ItemResult[] {
  const byTrialScores = new Map<string, Score[]>();
  for (const s of scores) (byTrialScores.get(s.trialId) ?? byTrialScores.set(s.trialId, []).get(s.trialId)!).push(s);
  const latest = latestCalls(calls);
  const costs = new Map<string, number>();
  for (const c of calls) costs.set(c.trialId, (costs.get(c.trialId) ?? 0) + c.costUsd);
  const out = new Map<string, ItemResult>();
  for (const t of [...trials].sort((a, b) => a.repeat - b.repeat || a.index - b.index)) {
    const item = items.get(t.itemHash);
    if (!item) continue;
    const key = `${t.modelAlias}\u0000${t.test}\u0000${t.itemHash}`;
    const r: ItemResult = out.get(key) ?? {
      model: t.modelAlias, test: t.test, item, itemHash: t.itemHash, value: null, repeats: [], failed: 0, unscored: 0,
      costUsd: 0, lastAnswer: undefined, lastReason: undefined, scorer: undefined,
    };
    out.set(key, r);
    r.costUsd += costs.get(t.id) ?? 0;
    const steps = latest.get(t.id) ?? [];
    if (steps.some(c => c?.status === 'error')) {
      r.failed++;
      continue;
    }
    const wanted = headline.get(t.test);
    const score = (byTrialScores.get(t.id) ?? []).find(s => s.scorer.name === wanted) ?? byTrialScores.get(t.id)?.[0];
    if (!score) continue; // pending: not finished yet
    r.scorer = score.scorer;
    r.lastAnswer = steps.at(-1)?.result?.text;
    r.lastReason = score.reason;
    if (score.value === null) r.unscored++;
    else r.repeats.push(score.value);
  }
  for (const r of out.values()) r.value = r.repeats.length ? r.repeats.reduce((a, b) => a + b, 0) / r.repeats.length : null;
  return [...out.values()];
}

/** Group values an item has for the report's breakdowns. */
export function groupValues(item: Item): Array<[field: string, value: string]> {
  const out: Array<[string, string]> = [];
  for (const f of GROUP_FIELDS) {
    const v = item[f];
    if (typeof v === 'string' && v) out.push([f, v]);
  }
  return out;
}
