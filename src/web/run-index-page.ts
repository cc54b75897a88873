import type { Store, TrialStatus } from '../core/index.js';
import { addCall, meanScores, newRow, type TrialRow } from './run-index-rows.js';

/** What a run holds of some top-level trials besides their own calls. */
export interface TrialResults {
  /** Judge trial id to the trial it judges: a judge's calls count towards its target's cost. */
  judged: Map<string, string>;
  /** Trials that finished or failed (absent: pending). */
  statuses: Map<string, Exclude<TrialStatus, 'pending'>>;
  /** Mean of each trial's scores and of the judgments of it (absent: none, or all unscored). */
  means: Map<string, number>;
}

/** The judges, statuses and mean scores of the trials `ids`, read for those trials alone. */
export async function readResults(store: Store, runId: string, ids: ReadonlyArray<string>): Promise<TrialResults> {
  const [judges, statuses, scores, judgments] = await Promise.all([
    store.listJudgeTrials(runId, ids),
    store.listTrialStatuses(runId, { trialIds: ids }),
    store.listScores(runId, { trialIds: ids }),
    store.listJudgments(runId, { targetTrialIds: ids }),
  ]);
  return { judged: new Map(judges.map(t => [t.id, t.target!])), statuses, means: meanScores(scores, judgments) };
}

/** Give rows the status and mean score read for them (a row read for none is pending and unscored). */
export function applyResults(rows: Iterable<TrialRow>, results: TrialResults): void {
  for (const row of rows) {
    row.status = results.statuses.get(row.id) ?? 'pending';
    row.score = results.means.get(row.id) ?? null;
  }
}

/**
 * Rows `offset` to `offset + limit` of the plan and how many there are, read from the store for
 * those trials alone (their own and their judges' calls, statuses, scores, judgments): what a
 * page needs before any index of the run is built.
 */
export async function readPage(store: Store, runId: string, offset: number, limit: number): Promise<{ total: number; rows: TrialRow[] }> {
  const { trials, total } = await store.listTopTrials(runId, { offset, limit });
  if (trials.length === 0) return { total, rows: [] };
  const rows = new Map(trials.map(t => [t.id, newRow(t)]));
  const results = await readResults(store, runId, [...rows.keys()]);
  for (const call of await store.listCalls(runId, { trialIds: [...rows.keys(), ...results.judged.keys()] })) addCall(rows, results.judged, call);
  applyResults(rows.values(), results);
  return { total, rows: [...rows.values()] };
}
