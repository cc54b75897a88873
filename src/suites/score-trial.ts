import type { Item, Score, Scorer, Trial } from '../core/index.js';
import type { ChatResult } from '../core/index.js';

/** Score one finished trial with every scorer of its test. A scorer that throws yields an unscored entry, never a 0. */
export async function scoreTrial(trial: Trial, item: Item, results: ReadonlyArray<ChatResult>, scorers: ReadonlyArray<Scorer>): Promise<Score[]> {
  const outputs = results.map(r => r.text);
  const scores: Score[] = [];
  for (const scorer of scorers) {
    let value: number | null;
    let reason: string | undefined;
    let details;
    try {
      ({ value, reason, details } = await scorer.score({ item, trial, outputs }));
    } catch (e) {
      value = null;
      reason = `scorer error: ${(e as Error).message}`;
    }
    const score: Score = { runId: trial.runId, trialId: trial.id, scorer: scorer.ref, value };
    if (reason !== undefined) score.reason = reason;
    if (details !== undefined) score.details = details;
    scores.push(score);
  }
  return scores;
}
