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
 * Counted in the store, so listing a store with a 200,000-trial run reads no trial.
 */
export async function countTrials(store: Store, runId: string): Promise<TrialCounts> {
  const groups = await store.countTrialStatuses(runId);
  const byKind = new Map<string, TrialCounts['byKind'][number]>();
  const total = { total: 0, done: 0, failed: 0, pending: 0 };
  const add = (kind: string, status: 'done' | 'failed' | 'pending', n: number) => {
    const k = byKind.get(kind) ?? byKind.set(kind, { kind, total: 0, done: 0, failed: 0, pending: 0 }).get(kind)!;
    k.total += n; k[status] += n;
    total.total += n; total[status] += n;
  };
  // Runs stored before trial statuses existed: no trial has one, but their calls say how each ended.
  const legacy = groups.length > 0 && groups.every(g => g.status === 'pending') && (await store.listCalls(runId, { limit: 1 })).length > 0;
  if (legacy) {
    const all = await store.listTrials(runId);
    const statusOf = await statusFromCalls(store, runId, all);
    for (const t of all) add(t.kind ?? 'item', statusOf(t.id), 1);
  } else {
    // Groups come in the order of their first trial: each kind first appears in plan order.
    for (const g of groups) add(g.kind ?? 'item', g.status, g.trials);
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
