import type { Store, Trial } from '../core/index.js';
import { latestCallsOf } from '../engine/history.js';

/** How a run's trials stand, counted as the engine counts them: every trial of every step kind. */
export interface TrialCounts {
  total: number;
  done: number;
  /** Provider failures (the trial's newest call of a step is an error), never scored as wrong. */
  failed: number;
  pending: number;
  /** The same per step kind, in plan order of first appearance (`item` for trials without a kind). */
  byKind: Array<{ kind: string; total: number; done: number; failed: number; pending: number }>;
}

/**
 * The one count of a run's trials that `paideia runs`, the web app's run list and its run page
 * show. Every trial counts, judges, learners and deck judges included, as in the engine's own
 * progress and outcome: a learning run of 4 decks with 4 learners on them has 8 trials, not 4.
 */
export async function countTrials(store: Store, runId: string, trials?: ReadonlyArray<Trial>): Promise<TrialCounts> {
  const all = trials ?? await store.listTrials(runId);
  const statuses = await store.listTrialStatuses(runId);
  // Runs stored before trial statuses existed: their calls say how each trial ended, a page at a time.
  const statusOf = statuses.size > 0 || all.length === 0 ? (id: string) => statuses.get(id) ?? 'pending' : await statusFromCalls(store, runId, all);
  const byKind = new Map<string, TrialCounts['byKind'][number]>();
  const total = { total: 0, done: 0, failed: 0, pending: 0 };
  for (const t of all) {
    const kind = t.kind ?? 'item';
    const k = byKind.get(kind) ?? byKind.set(kind, { kind, total: 0, done: 0, failed: 0, pending: 0 }).get(kind)!;
    const status = statusOf(t.id);
    k.total += 1; k[status] += 1;
    total.total += 1; total[status] += 1;
  }
  return { ...total, byKind: [...byKind.values()] };
}

async function statusFromCalls(store: Store, runId: string, trials: ReadonlyArray<Trial>): Promise<(id: string) => 'done' | 'failed' | 'pending'> {
  const latest = await latestCallsOf(store, runId, new Set(trials.map(t => t.id)));
  return id => {
    const steps = (latest.get(id) ?? []).filter(c => c !== undefined);
    return steps.length === 0 ? 'pending' : steps.some(c => c!.status === 'error') ? 'failed' : 'done';
  };
}
