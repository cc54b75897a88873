import type Database from 'better-sqlite3';

/** The claim a write is made under: the trial and the worker that must hold it. */
export interface FenceKey {
  runId: string;
  trialId: string;
  workerId: string;
}

/** The statements a queued write may run (their SQL is in statements.ts). */
export type WriteStatement = 'insertCall' | 'insertScore' | 'insertJudgment' | 'putArtifact' | 'release' | 'putBlob';

/**
 * One queued write, as data: it is applied in the commit thread, so it carries values, not code.
 */
export interface WriteOp {
  /** The claim it is made under, checked in its transaction. */
  fence?: FenceKey | undefined;
  /** The trial's new status: [runId, trialId, status]. */
  status?: [string, string, string];
  /** Statements to run, by name, with their arguments. */
  rows: Array<[WriteStatement, unknown[]]>;
  /** The request hash of the answer it stores, which the store serves from memory until it commits. */
  cacheKey?: string;
}

/** Why a write failed, as a value the thread can send back. */
export interface WriteFailure {
  message: string;
  code?: string;
  /** The write's claim had gone to another worker. */
  claimLost?: { runId: string; trialId: string };
}

export interface BatchOutcome {
  /** Per write, in order: undefined when it committed. Absent when all committed. */
  failures?: Array<WriteFailure | undefined>;
  /** The call rows the batch inserted: their first and last sequence numbers. */
  calls?: [number, number];
}

/** How writeBatch works: its SQL, and what it is told of SQLite and of encoded writes. */
export interface BatchOptions {
  /** The SQL of its write statements and of the claim checks. */
  sql: BatchSql;
  /** A pattern's source matching the error codes that are faults of the file (store/faults.ts). */
  faultCodes: string;
  /** Runs first inside each batch's transaction. */
  beforeBatch?: () => void;
  /** Makes an encoded write (write-codec.ts), as it is needed. */
  decode?: (text: string) => WriteOp;
}

/** The SQL of what writeBatch needs: its write statements and the claim checks. */
export type BatchSql = Record<WriteStatement | 'heldOf' | 'claimOf' | 'setTrialStatus' | 'setTrialStatuses', string>;

/**
 * Apply batches of writes on a connection: each batch is one IMMEDIATE transaction, in which the
 * claims of all its writes are checked in one query per worker and the trials' statuses set in one
 * statement per status, instead of a statement per trial for each. When a batch fails (a lost
 * claim, a full disk), each write is tried again on its own, so one bad write does not fail the
 * others. Writes may come encoded, then `decode` makes each one as it is needed, so its objects
 * die young.
 *
 * The commit thread runs this function from its source text (commit-thread.ts), so it uses
 * nothing from outside its own body: no imports, no module constants.
 */
export function writeBatch(db: Database.Database, o: BatchOptions): (ops: ReadonlyArray<WriteOp | string>) => BatchOutcome {
  const { sql, beforeBatch, decode } = o;
  const fileFault = new RegExp(o.faultCodes);
  type ByRun<T> = Map<string, Map<string, T>>;
  const inner = <T>(m: ByRun<T>, runId: string): Map<string, T> => m.get(runId) ?? m.set(runId, new Map()).get(runId)!;
  const prepared = new Map<string, Database.Statement>();
  const st = (name: keyof BatchSql): Database.Statement => {
    let s = prepared.get(name);
    if (!s) prepared.set(name, (s = db.prepare(sql[name])));
    return s;
  };
  // Trials whose claim is known to be held, by run and worker, in the transaction under way (a
  // claim cannot change hands inside it).
  let held: ByRun<Set<string>> = new Map();
  // Statuses set in the batch under way, last one per trial, by run; undefined: set them at once.
  let statuses: ByRun<string> | undefined;
  let first = 0;
  let last = 0;

  const check = (f: FenceKey) => {
    const byWorker = inner(held, f.runId);
    const ids = byWorker.get(f.workerId) ?? byWorker.set(f.workerId, new Set()).get(f.workerId)!;
    if (ids.has(f.trialId)) return;
    const row = st('claimOf').get(f.runId, f.trialId) as { worker_id?: string } | undefined;
    if (row?.worker_id !== f.workerId) {
      throw Object.assign(new Error(`the claim on trial ${f.trialId} of run ${f.runId} went to another worker`), { claimLost: { runId: f.runId, trialId: f.trialId } });
    }
    ids.add(f.trialId);
  };
  const apply = (op: WriteOp) => {
    if (op.fence) check(op.fence);
    for (const [name, args] of op.rows) {
      // A structured clone turns a Buffer into a plain Uint8Array, which SQLite would not take as a blob.
      const values = name === 'putBlob' ? args.map(a => (a instanceof Uint8Array && !Buffer.isBuffer(a) ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : a)) : args;
      const r = st(name).run(...values);
      if (name === 'insertCall') {
        const seq = Number(r.lastInsertRowid);
        if (first === 0 || seq < first) first = seq;
        if (seq > last) last = seq;
      }
    }
    if (op.status) {
      const [runId, trialId, status] = op.status;
      if (statuses) inner(statuses, runId).set(trialId, status);
      else st('setTrialStatus').run(status, runId, trialId);
    }
  };
  const opOf = (op: WriteOp | string): WriteOp => (typeof op === 'string' ? decode!(op) : op);
  const checkBatch = (ops: ReadonlyArray<WriteOp | string>) => {
    // A trial's call and its result usually share a batch: each trial is looked up once.
    const asked: ByRun<Set<string>> = new Map();
    for (const op of ops) {
      const f = opOf(op).fence;
      if (!f) continue;
      const byWorker = inner(asked, f.runId);
      (byWorker.get(f.workerId) ?? byWorker.set(f.workerId, new Set()).get(f.workerId)!).add(f.trialId);
    }
    for (const [runId, byWorker] of asked) {
      for (const [workerId, ids] of byWorker) {
        const found = new Set<string>();
        for (const r of st('heldOf').all(JSON.stringify([...ids]), runId, workerId) as Array<{ trial_id: string }>) found.add(r.trial_id);
        inner(held, runId).set(workerId, found);
      }
    }
  };
  const setBatchStatuses = () => {
    for (const [runId, byTrial] of statuses!) {
      const grouped = new Map<string, string[]>();
      // forEach, not for-of: an entry array per trial per batch is garbage the hot path can skip.
      byTrial.forEach((status, trialId) => (grouped.get(status) ?? grouped.set(status, []).get(status)!).push(trialId));
      for (const [status, ids] of grouped) st('setTrialStatuses').run(status, runId, JSON.stringify(ids));
    }
  };
  const failureOf = (e: unknown): WriteFailure => {
    const error = e as { message?: unknown; code?: unknown; claimLost?: WriteFailure['claimLost'] };
    const f: WriteFailure = { message: String(error?.message ?? e) };
    if (typeof error?.code === 'string') f.code = error.code;
    if (error?.claimLost) f.claimLost = error.claimLost;
    return f;
  };

  // Made once: better-sqlite3 wraps each transaction function anew.
  let current: ReadonlyArray<WriteOp | string> = [];
  const batch = db.transaction(() => {
    held = new Map();
    beforeBatch?.();
    checkBatch(current);
    statuses = new Map();
    for (const op of current) apply(opOf(op));
    setBatchStatuses();
  }).immediate;
  let single: WriteOp | string | undefined;
  const one = db.transaction(() => {
    held = new Map();
    apply(opOf(single!));
  }).immediate;

  return ops => {
    first = 0;
    last = 0;
    const outcome: BatchOutcome = {};
    try {
      current = ops;
      batch();
    } catch {
      statuses = undefined;
      first = 0;
      last = 0;
      // Each write alone, in order, so what fits is kept; from the first that fails for a fault of
      // the file (full, read-only, damaged, I/O) on, the rest fail with it untried: each would fail
      // the same way, only later, while the run went on calling models whose answers could not be
      // stored (a full disk under the commit thread: up to 1.8 s of calls).
      let fault: WriteFailure | undefined;
      outcome.failures = ops.map(op => {
        if (fault) return fault;
        try {
          single = op;
          one();
          return undefined;
        } catch (e) {
          const failure = failureOf(e);
          if (failure.code && fileFault.test(failure.code)) fault = failure;
          return failure;
        } finally {
          single = undefined;
        }
      });
    } finally {
      current = [];
      statuses = undefined;
    }
    if (first > 0) outcome.calls = [first, last];
    return outcome;
  };
}
