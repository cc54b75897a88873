import type Database from 'better-sqlite3';
import { ClaimLostError } from '../../core/index.js';

/** The claim a write is made under: the trial and the worker that must hold it. */
export interface FenceKey {
  runId: string;
  trialId: string;
  workerId: string;
}

/** What the group commit asks of the database, prepared once. */
export interface GroupCommitStatements {
  /** (JSON array of trial ids, runId, workerId) -> rows `{ trial_id }` of those the worker holds. */
  heldOf: Database.Statement;
  /** (runId, trialId) -> `{ worker_id }` of the trial's claim. */
  claimOf: Database.Statement;
  /** (status, runId, JSON array of trial ids). */
  setTrialStatuses: Database.Statement;
  /** (status, runId, trialId). */
  setTrialStatus: Database.Statement;
}

export interface GroupCommit {
  /** Queue a write; it resolves once its transaction committed. */
  write(fn: () => void, fence?: FenceKey): Promise<void>;
  /** Commit what is queued now (reads call it first, so they see every write made before). */
  flush(): void;
  /** Inside a write: refuse it (ClaimLostError) unless its worker still holds the trial. */
  check(fence: FenceKey | undefined): void;
  /** Inside a write: set a trial's status (one statement per batch and status). */
  setStatus(runId: string, trialId: string, status: string): void;
}

/** Shortest gap between two group commits while writes keep coming. */
const MIN_FLUSH_GAP_MS = 2;

const keyOf = (runId: string, trialId: string, workerId: string) => `${runId}\u0000${trialId}\u0000${workerId}`;

/**
 * Group commit: writes that arrive close together share one transaction, and within it the
 * claims of all its writes are checked in one query per worker and the trials' statuses set in
 * one statement per status, instead of a statement per trial for each. A write's promise
 * resolves only after its transaction committed, so "resolved" still means "survives a kill -9".
 * When a batch fails (a lost claim), each write is tried again on its own, so one bad write does
 * not fail the others.
 */
export function createGroupCommit(db: Database.Database, st: () => GroupCommitStatements, onSettled: () => void): GroupCommit {
  let queue: Array<{ write: () => void; resolve: () => void; reject: (e: unknown) => void; fence: FenceKey | undefined }> = [];
  let scheduled = false;
  let lastFlush = 0;
  // Claims known to be held in the transaction under way (a claim cannot change hands inside it).
  let held = new Set<string>();
  // Statuses set in the batch under way, last one per trial; undefined: set them at once.
  let statuses: Map<string, { runId: string; trialId: string; status: string }> | undefined;

  const checkBatch = (batch: typeof queue) => {
    // A trial's call and its result usually share a batch: each trial is looked up once.
    const byWorker = new Map<string, { runId: string; workerId: string; ids: Set<string> }>();
    for (const { fence: f } of batch) {
      if (!f) continue;
      const k = `${f.runId}\u0000${f.workerId}`;
      (byWorker.get(k) ?? byWorker.set(k, { runId: f.runId, workerId: f.workerId, ids: new Set() }).get(k)!).ids.add(f.trialId);
    }
    for (const { runId, workerId, ids } of byWorker.values()) {
      for (const r of st().heldOf.all(JSON.stringify([...ids]), runId, workerId) as Array<{ trial_id: string }>) held.add(keyOf(runId, r.trial_id, workerId));
    }
  };
  const setBatchStatuses = () => {
    const grouped = new Map<string, { runId: string; status: string; ids: string[] }>();
    for (const s of statuses!.values()) {
      const k = `${s.runId}\u0000${s.status}`;
      (grouped.get(k) ?? grouped.set(k, { runId: s.runId, status: s.status, ids: [] }).get(k)!).ids.push(s.trialId);
    }
    for (const g of grouped.values()) st().setTrialStatuses.run(g.status, g.runId, JSON.stringify(g.ids));
  };

  const flush = () => {
    scheduled = false;
    lastFlush = performance.now();
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    try {
      db.transaction(() => {
        held = new Set();
        checkBatch(batch);
        statuses = new Map();
        for (const w of batch) w.write();
        setBatchStatuses();
      }).immediate();
      statuses = undefined;
      onSettled();
      for (const w of batch) w.resolve();
    } catch {
      statuses = undefined;
      for (const w of batch) {
        held = new Set();
        try {
          db.transaction(w.write).immediate();
          w.resolve();
        } catch (e) {
          w.reject(e);
        }
      }
      onSettled();
    }
  };

  return {
    flush,
    write(fn, fence) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ write: fn, resolve, reject, fence });
        if (!scheduled) {
          scheduled = true;
          // Writes that trickle in wait at most a couple of milliseconds to share a commit; a burst
          // after a quiet spell is committed on the next turn.
          const wait = MIN_FLUSH_GAP_MS - (performance.now() - lastFlush);
          if (wait > 0) setTimeout(flush, wait);
          else setImmediate(flush);
        }
      });
    },
    check(fence) {
      if (!fence) return;
      const key = keyOf(fence.runId, fence.trialId, fence.workerId);
      if (held.has(key)) return;
      const row = st().claimOf.get(fence.runId, fence.trialId) as { worker_id?: string } | undefined;
      if (row?.worker_id !== fence.workerId) throw new ClaimLostError(fence.runId, fence.trialId);
      held.add(key);
    },
    setStatus(runId, trialId, status) {
      if (statuses) statuses.set(`${runId}\u0000${trialId}`, { runId, trialId, status });
      else st().setTrialStatus.run(status, runId, trialId);
    },
  };
}
