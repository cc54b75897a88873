import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  ClaimLostError, StoreError, jsonText,
  type CallRecord, type ChatResult, type JsonValue, type Judgment, type RunRecord, type RunStatus, type Score, type Store,
  type Trial, type TrialResult, type VersionedItem, type WriteFence,
} from '../../core/index.js';
import { shellWord } from '../../core/command-hint.js';
import { SQLITE_FAULT_CODES, faultOf, storeError } from '../faults.js';
import { deleteRunSqlite } from './delete-run.js';
import { createCacheFilter } from './cache-filter.js';
import { startCommitThread } from './commit-thread.js';
import { createGroupCommit } from './group-commit.js';
import { writeBatch, type BatchOutcome, type WriteOp } from './write-batch.js';
import { sqlitePermits } from './permits.js';
import { sqliteTrialPages } from './trial-pages.js';
import { MIGRATIONS } from './schema.js';
import { BATCH_SQL, judgmentArgs, prepare, scoreArgs } from './statements.js';
import { interner, statusCount, toCall, toRun, toTrial, trialRow } from './rows.js';

type Row = Record<string, unknown>;
const json = (v: unknown): string => JSON.stringify(v);
const parse = <T>(v: unknown): T => JSON.parse(v as string) as T;

export interface SqliteStoreOptions {
  /** Open for reading only (report, runs): works on a read-only file, folder or disk, and never writes. */
  readOnly?: boolean;
  /**
   * Largest size of the database in pages (SQLite's max_page_count); a write past it fails as on a
   * full disk (SQLITE_FULL). Tests use it to fill the disk at a chosen point.
   */
  maxPages?: number;
  /**
   * Writes committed on the event loop before a commit thread takes over (default
   * THREAD_AFTER_WRITES; 0: from the first write; Infinity: never). In-memory and read-only
   * stores have none.
   */
  threadAfterWrites?: number;
}

/**
 * A thread pays only over a long run. 200,000 instant trials, calling phase, four alternating pairs
 * on the bench machine: 10.1, 12.6, 12.7 and 15.5 s with the thread from the first write against
 * 16.2, 14.7, 15.4 and 21.5 s without; peak memory 80-100 MB more (the thread's isolate and heap,
 * and the loop running further ahead of its commits). At 20,000 trials, or HTTP at concurrency
 * 256, no difference beyond the machine's noise: runs that short keep their memory.
 */
const THREAD_AFTER_WRITES = 50_000;

/**
 * Open the file and check it before anything is read or written: a damaged database (bad pages in
 * the middle of a file still open fine) is refused with a StoreError, not used until it fails.
 */
function openDatabase(path: string, o: SqliteStoreOptions): Database.Database {
  const url = `sqlite:${path}`;
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:' && !o.readOnly) mkdirSync(dirname(path), { recursive: true });
    db = o.readOnly ? openReadOnly(path) : new Database(path);
    if (o.readOnly) db.pragma(BUSY_TIMEOUT);
    else {
      db.pragma('journal_mode = WAL');
      for (const p of writerPragmas(o)) db.pragma(p);
    }
    const check = db.pragma('quick_check', { simple: false }) as Array<{ quick_check: string }>;
    const problems = check.map(r => r.quick_check).filter(r => r !== 'ok');
    if (problems.length > 0) throw Object.assign(new Error(`quick_check: ${problems.slice(0, 3).join('; ')}`), { code: 'SQLITE_CORRUPT' });
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof StoreError) throw error;
    const fault = faultOf(error);
    // SQLite says only "unable to open"; a folder that cannot be written is the usual reason.
    const readOnlyFolder = fault === 'io' && !o.readOnly && path !== ':memory:' && !writable(dirname(path));
    throw fault ? storeError(readOnlyFolder ? 'read-only' : fault, url, error) : error;
  }
}

const BUSY_TIMEOUT = 'busy_timeout = 10000';

/** The settings of a connection that writes (the store's own and its commit thread's): SQLite keeps them per connection. */
function writerPragmas(o: SqliteStoreOptions): string[] {
  return [
    BUSY_TIMEOUT,
    // NORMAL in WAL mode survives a process kill; only an OS crash could drop the last commits.
    'synchronous = NORMAL',
    // Fewer, larger checkpoints: each one syncs the file, and a run writes many small commits
    // whose index pages (keyed by content hashes) land all over the file; the longer the WAL, the
    // more rewrites of one page a checkpoint folds into one write. 40,000 pages (160 MB of WAL at
    // most, removed on close) against 4,000: 200,000 instant trials 47-50 s -> 35-42 s, 20,000
    // 2.7-3.0 s -> 2.3-2.5 s on the bench machine.
    'wal_autocheckpoint = 40000',
    ...(o.maxPages !== undefined ? [`max_page_count = ${Math.floor(o.maxPages)}`] : []),
  ];
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A WAL-mode file in a read-only folder or on a read-only disk cannot be opened in place (SQLite
 * wants to create its -shm file). With no -wal file left beside it the file holds every commit,
 * so a copy in memory, marked as a rollback-journal file, reads the same.
 */
function openReadOnly(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    // The open is lazy: the first read is what needs the -shm file.
    db.pragma('user_version');
    return db;
  } catch (error) {
    db?.close();
    // SQLite says CANTOPEN, or READONLY_DIRECTORY when the folder is what cannot be written.
    const code = (error as { code?: string }).code;
    if ((code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_READONLY_DIRECTORY') || !existsSync(path)) throw error;
    // An empty -wal holds nothing: the file has every commit, as after a clean close.
    if (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0) {
      const folder = dirname(path);
      throw new StoreError('read-only', `the store sqlite:${path} was not closed cleanly (its -wal file holds commits not yet in the file) and it cannot be read where it is (${code}: its folder or disk cannot be written). `
        + `Copy the folder and make the copy writable (cp -r ${shellWord(folder)} COPY && chmod u+w COPY), then name the copy with --store sqlite:COPY/${shellWord(basename(path))}; or run any command on it once where it can be written, then read it here again.`, { cause: error, storeUrl: `sqlite:${path}` });
    }
    const bytes = readFileSync(path);
    // Header bytes 18-19 are the read and write versions: 2 is WAL, 1 the rollback journal.
    if (bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20);
    return new Database(bytes, { readonly: true });
  }
}

/** A writable in-memory copy of an open database (every commit, the WAL's included), marked as a rollback-journal file. */
function inMemoryCopy(db: Database.Database): Database.Database {
  const bytes = db.serialize();
  db.close();
  if (bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20);
  return new Database(bytes);
}

/**
 * The embedded store: one SQLite file in WAL mode. Every write is its own committed transaction
 * (or one per batch), so a kill -9 after a promise resolves never loses it.
 */
export function createSqliteStore(path: string, o: SqliteStoreOptions = {}): Store {
  let db = openDatabase(path, o);

  let statements: ReturnType<typeof prepare> | undefined;
  const st = () => (statements ??= prepare(db));

  // Answers queued but not yet committed, so a cache lookup never has to force a commit.
  const uncommitted = new Map<string, ChatResult>();
  const cacheFilter = createCacheFilter(() => db, () => uncommitted.keys());
  // A long run's writes are committed by a thread with its own connection: pages, claim checks and
  // checkpoints then run beside the event loop. An in-memory database has only this connection.
  let here: ((ops: WriteOp[]) => BatchOutcome) | undefined;
  const commits = createGroupCommit({
    // Each group commit here also takes in the answers other processes stored: a lookup then rarely reads.
    here: ops => (here ??= writeBatch(db, { sql: BATCH_SQL, faultCodes: SQLITE_FAULT_CODES, beforeBatch: cacheFilter.sync }))(ops),
    ...(path !== ':memory:' && !o.readOnly ? { thread: () => startCommitThread({ path, sql: BATCH_SQL, faultCodes: SQLITE_FAULT_CODES, pragmas: writerPragmas(o) }) } : {}),
    threadAfter: o.threadAfterWrites ?? THREAD_AFTER_WRITES,
    onSettled: (cacheKeys, outcome) => {
      for (const key of cacheKeys) uncommitted.delete(key);
      if (outcome.calls) cacheFilter.committed(outcome.calls[0], outcome.calls[1]);
    },
  });
  const write = commits.write;
  const read = async <T>(fn: () => T): Promise<T> => {
    const waited = commits.settled();
    if (waited) await waited;
    return fn();
  };
  const fenceOf = (runId: string, trialId: string, fence: WriteFence | undefined) => (fence ? { runId, trialId, workerId: fence.workerId } : undefined);

  return {
    specVersion: 'paideia.store.v2',
    url: `sqlite:${path}`,
    async init() {
      const version = db.pragma('user_version', { simple: true }) as number;
      // A read-only open of a store an older Paideia wrote: migrate a copy in memory, never the file.
      const copied = o.readOnly === true && version < MIGRATIONS.length;
      if (copied) db = inMemoryCopy(db);
      for (let i = version; i < MIGRATIONS.length; i++) {
        db.transaction(() => {
          db.exec(MIGRATIONS[i]!);
          db.pragma(`user_version = ${i + 1}`);
        })();
      }
      // The copy refuses writes as the file would (SQLITE_READONLY), so read-only still means it.
      if (copied) db.pragma('query_only = 1');
      st();
    },
    async close() {
      await commits.close();
      db.close();
    },
    async openRun(run) {
      return read(() => {
        st().insertRun.run(runRow(run));
        return toRun(st().getRun.get(run.id) as Row);
      });
    },
    async getRun(id) {
      const row = await read(() => st().getRun.get(id) as Row | undefined);
      return row ? toRun(row) : undefined;
    },
    async listRuns() {
      return read(() => (st().listRuns.all() as Row[]).map(toRun));
    },
    async setRunStatus(id: string, status: RunStatus, note?: string) {
      await read(() => st().setStatus.run(status, new Date().toISOString(), note ?? null, id));
    },
    async saveItems(items: VersionedItem[]) {
      await read(() => db.transaction(() => {
        for (const v of items) st().insertItem.run(v.hash, v.item.id, v.item.test, json(v.item));
      })());
    },
    async listRunItems(runId) {
      return read(() => (st().runItems.all(runId) as Row[]).map(r => ({
        item: parse(r.body),
        hash: r.hash as string,
        ...(r.file ? { file: r.file as string } : {}),
        ...(r.line ? { line: r.line as number } : {}),
      })));
    },
    async saveTrials(trials: Trial[]) {
      await read(() => db.transaction(() => {
        // An item has a trial per model and repeat, but one row in run_items. Item hashes by run,
        // not a key string per trial: at 200,000 trials those were 12 MB of garbage.
        const linked = new Map<string, Set<string>>();
        for (const t of trials) {
          st().insertTrial.run(...trialRow(t));
          let items = linked.get(t.runId);
          if (!items) linked.set(t.runId, (items = new Set()));
          if (items.has(t.itemHash)) continue;
          items.add(t.itemHash);
          st().insertRunItem.run(t.runId, t.itemHash);
        }
      })());
    },
    async listTrials(runId, only = {}) {
      const same = interner();
      const rows = await read(() => (only.trialIds ? st().trialsOf.all(runId, json(only.trialIds)) : st().trials.all(runId)) as Row[]);
      return rows.map(r => toTrial(r, same));
    },
    async listTopTrials(runId, window) {
      const same = interner();
      return read(() => ({
        trials: (st().topTrials.all(runId, window.limit, window.offset) as Row[]).map(r => toTrial(r, same)),
        total: (st().topCount.get(runId) as Row).n as number,
      }));
    },
    async listJudgeTrials(runId, targetIds) {
      const same = interner();
      return read(() => (st().judgeTrials.all(runId, json(targetIds)) as Row[]).map(r => toTrial(r, same)));
    },
    async countTrialStatuses(runId) {
      return read(() => (st().statusCounts.all(runId) as Row[]).map(statusCount));
    },
    async listTrialStatuses(runId, only = {}) {
      const rows = await read(() => (only.trialIds ? st().statusesOf.all(runId, json(only.trialIds)) : st().statuses.all(runId)) as Row[]);
      return new Map(rows.map(r => [r.id as string, r.status as 'done' | 'failed']));
    },
    saveTrialResult(r: TrialResult, fence?: WriteFence) {
      const op: WriteOp = { fence: fenceOf(r.runId, r.trialId, fence), status: [r.runId, r.trialId, r.status], rows: [] };
      for (const s of r.scores ?? []) op.rows.push(['insertScore', scoreArgs(s)]);
      for (const j of r.judgments ?? []) op.rows.push(['insertJudgment', judgmentArgs(j)]);
      for (const a of r.artifacts ?? []) op.rows.push(['putArtifact', [r.runId, a.kind, a.key, json(a.value)]]);
      return write(op);
    },
    saveCall(c: CallRecord, fence?: WriteFence) {
      const op: WriteOp = {
        fence: fenceOf(c.runId, c.trialId, fence),
        rows: [['insertCall', [
          c.runId, c.trialId, c.runId, c.trialId, c.step, c.requestHash, jsonText(c.request), c.status,
          c.result ? json(c.result) : null, c.error ? json(c.error) : null,
          c.attempts, c.latencyMs, c.costUsd, c.cached ? 1 : 0, c.createdAt, c.model ?? null, c.endpoint ?? null,
        ]]],
      };
      if (c.status === 'ok' && c.result) {
        uncommitted.set(c.requestHash, c.result);
        cacheFilter.add(c.requestHash);
        op.cacheKey = c.requestHash;
      }
      return write(op);
    },
    async listCalls(runId, page = {}) {
      return read(() => {
        const limit = page.limit ?? Number.MAX_SAFE_INTEGER;
        const after = page.afterSeq ?? 0;
        if (page.trialIds) {
          const out: CallRecord[] = [];
          for (const id of page.trialIds) out.push(...(st().callsOfTrial.all(runId, id, runId, id, after) as Row[]).map(r => toCall(r)));
          return out.sort((a, b) => a.seq! - b.seq!).slice(0, limit);
        }
        const same = interner();
        return (st().calls.all(runId, after, Math.min(limit, Number.MAX_SAFE_INTEGER)) as Row[]).map(r => toCall(r, same));
      });
    },
    async findCachedResult(requestHash) {
      const pending = uncommitted.get(requestHash);
      if (pending) return pending;
      // A request no stored call answered (every turn of a new dialogue) needs no read.
      cacheFilter.syncIfStale();
      if (!cacheFilter.mayHold(requestHash)) return undefined;
      // Committed rows only: what is queued is in `uncommitted`, so no commit is forced here.
      const row = st().cached.get(requestHash) as Row | undefined;
      return row ? parse<ChatResult>(row.result) : undefined;
    },
    async spentUsd(runId) {
      return read(() => ((st().spent.get(runId) as Row).total as number | null) ?? 0);
    },
    saveScores(scores: Score[]) {
      return write({ rows: scores.map(s => ['insertScore', scoreArgs(s)]) });
    },
    async listScores(runId, only = {}) {
      // A run has a few scorers: their refs are read once and shared by every score.
      const refs = new Map<string, Score['scorer']>();
      const refOf = (r: Row) => {
        const key = `${r.scorer_name}\u0000${r.scorer_version}\u0000${r.scorer_args}`;
        let ref = refs.get(key);
        if (!ref) refs.set(key, (ref = { name: r.scorer_name as string, version: r.scorer_version as string, args: parse(r.scorer_args) }));
        return ref;
      };
      const rows = await read(() => (only.trialIds ? st().scoresOf.all({ run: runId, ids: json(only.trialIds) }) : st().scores.all(runId)) as Row[]);
      return rows.map(r => ({
        runId, trialId: r.trial_id as string, scorer: refOf(r),
        value: r.value as number | null,
        ...(r.reason != null ? { reason: r.reason as string } : {}),
        ...(r.details != null ? { details: parse(r.details) } : {}),
      }));
    },
    saveJudgments(judgments: Judgment[]) {
      return write({ rows: judgments.map(j => ['insertJudgment', judgmentArgs(j)]) });
    },
    async listJudgments(runId, only = {}) {
      const rows = await read(() => (only.targetTrialIds ? st().judgmentsOf.all(runId, json(only.targetTrialIds)) : st().judgments.all(runId)) as Row[]);
      return rows.map(r => parse<Judgment>(r.body));
    },
    async claimTrials(runId, worker, trialIds, expiresAt) {
      // One upsert for all: a trial nobody holds, whose claim expired, or that this worker holds.
      const taken = await read(() => new Set((st().putClaims.all(
        runId, worker.workerId, worker.pid, worker.host, expiresAt, JSON.stringify(trialIds), Date.now(),
      ) as Row[]).map(r => r.trial_id as string)));
      return trialIds.filter(id => taken.has(id));
    },
    async claimNextTrials(runId, worker, limit, expiresAt) {
      return read(() => db.transaction(() => {
        const now = Date.now();
        const ids = (st().nextOpen.all(runId, worker.workerId, now, limit) as Row[]).map(r => r.id as string);
        if (ids.length === 0) return ids;
        return (st().putClaims.all(runId, worker.workerId, worker.pid, worker.host, expiresAt, JSON.stringify(ids), now) as Row[])
          .map(r => r.trial_id as string);
      }).immediate());
    },
    async renewClaims(runId, workerId, expiresAt) {
      return read(() => st().renewClaims.run(expiresAt, runId, workerId).changes);
    },
    async releaseClaims(runId, workerId) {
      await read(() => db.transaction(() => {
        st().releaseClaims.run(runId, workerId);
        st().releaseReservations.run(runId, workerId);
      })());
    },
    async listClaimHolders(runId) {
      return read(() => (st().holders.all(runId) as Row[]).map(r => ({
        runId, workerId: r.worker_id as string, pid: r.pid as number, host: r.host as string,
        expiresAt: r.expires_at as number, trials: r.trials as number,
      })));
    },
    async reserveBudget(runId, r, capUsd) {
      // IMMEDIATE: the spend and every reservation are read under the write lock, so two workers
      // cannot both take the last room under the cap.
      return read(() => db.transaction(() => {
        const spent = ((st().spent.get(runId) as Row).total as number | null) ?? 0;
        const reserved = ((st().reserved.get(runId) as Row).total as number | null) ?? 0;
        if (spent + reserved + r.amountUsd > capUsd) return false;
        st().reserve.run(runId, r.id, r.workerId, r.amountUsd);
        return true;
      }).immediate());
    },
    releaseBudget(runId, reservationId) {
      return write({ rows: [['release', [runId, reservationId]]] });
    },
    async reservedUsd(runId) {
      return read(() => ((st().reserved.get(runId) as Row).total as number | null) ?? 0);
    },
    putArtifact(runId, kind, key, value: JsonValue) {
      return write({ rows: [['putArtifact', [runId, kind, key, json(value)]]] });
    },
    async listArtifacts(runId, kind) {
      return read(() => (st().artifacts.all(runId, kind) as Row[]).map(r => ({ key: r.key as string, value: parse(r.value) })));
    },
    async listArtifactKinds(runId) {
      return read(() => (st().artifactKinds.all(runId) as Row[]).map(r => r.kind as string));
    },
    async putBlob(bytes, mediaType) {
      const hash = createHash('sha256').update(bytes).digest('hex');
      const ref = { hash, mediaType, size: bytes.byteLength };
      await write({ rows: [['putBlob', [hash, mediaType, bytes.byteLength, Buffer.from(bytes)]]] });
      return ref;
    },
    async getBlob(hash) {
      const row = await read(() => st().getBlob.get(hash) as Row | undefined);
      if (!row) return undefined;
      const bytes = new Uint8Array(row.bytes as Buffer);
      return { ref: { hash, mediaType: row.media_type as string, size: row.size as number }, bytes };
    },
    async deleteRun(runId, d = {}) {
      return read(() => deleteRunSqlite(db, runId, d.force ?? false));
    },
    ...sqlitePermits(() => db, read),
    ...sqliteTrialPages(() => db, read),
  };
}

function runRow(r: RunRecord) {
  return {
    id: r.id, kind: r.kind, created_at: r.createdAt, updated_at: r.updatedAt, status: r.status, config: json(r.config),
    prices: json(r.prices), paideia_version: r.paideiaVersion, note: r.note ?? null,
  };
}
