import type { Store } from './core/index.js';

/** What one worker session took from the queue. */
export interface BatchView {
  /** The store as the session sees it. */
  readonly store: Store;
  /** Trials the session claimed (empty until it claimed). */
  readonly claimed: ReadonlyArray<string>;
  /** Whether the session asked for trials at all (a run with nothing open asks for none). */
  readonly asked: boolean;
}

/**
 * One worker session's window on a planned run: when the engine claims the run's open trials,
 * the session takes the next `batch()` of them (asked when it claims) from the store's work queue instead (other workers
 * take the rest), and the run's calls it reads are those of its trials only, so a session over a
 * large run reads what it works on. A worker never plans: the run's trials are stored already,
 * so writing them again is skipped. Everything else is the store itself.
 */
export function batchView(store: Store, runId: string, batch: () => number): BatchView {
  let claimed: string[] = [];
  let asked = false;
  const view: Store = {
    ...store,
    async saveTrials(trials) {
      if (trials.some(t => t.runId !== runId)) await store.saveTrials(trials.filter(t => t.runId !== runId));
    },
    async claimTrials(id, worker, trialIds, expiresAt) {
      if (id !== runId) return store.claimTrials(id, worker, trialIds, expiresAt);
      // The engine asks in slices; the queue answers the first ask.
      if (asked || trialIds.length === 0) return [];
      asked = true;
      claimed = await store.claimNextTrials(runId, worker, batch(), expiresAt);
      return claimed;
    },
    async listCalls(id, page = {}) {
      if (id !== runId || page.trialIds) return store.listCalls(id, page);
      return store.listCalls(id, { ...page, trialIds: claimed });
    },
  };
  return {
    store: view,
    get claimed() {
      return claimed;
    },
    get asked() {
      return asked;
    },
  };
}
