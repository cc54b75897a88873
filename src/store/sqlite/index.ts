import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  ClaimLostError,
  type CallRecord, type ChatResult, type JsonValue, type Judgment, type RunRecord, type RunStatus, type Score, type Store,
  type Trial, type TrialResult, type VersionedItem, type WriteFence,
} from '../../core/index.js';
import { faultOf, storeError } from '../faults.js';
import { MIGRATIONS } from './schema.js';
import { toCall, toRun, toTrial, trialRow } from './rows.js';

type Row = Record<string, unknown>;
const json = (v: unknown): string => JSON.stringify(v);
const parse = <T>(v: unknown): T => JSON.parse(v as string) as T;

export interface SqliteStoreOptions {
  /** Open for reading only (report, runs): works on a read-only file, folder or disk, and never writes. */
  readOnly?: boolean;
}

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
    db.pragma('busy_timeout = 10000');
    if (!o.readOnly) {
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode survives a process kill; only an OS crash could drop the last commits.
      db.pragma('synchronous = NORMAL');
      // Fewer, larger checkpoints: each one syncs the file, and a run writes many small commits.
      db.pragma('wal_autocheckpoint = 4000');
    }
    const check = db.pragma('quick_check', { simple: false }) as Array<{ quick_check: string }>;
    const problems = check.map(r => r.quick_check).filter(r => r !== 'ok');
    if (problems.length > 0) throw Object.assign(new Error(`quick_check: ${problems.slice(0, 3).join('; ')}`), { code: 'SQLITE_CORRUPT' });
    return db;
  } catch (error) {
    db?.close();
    const fault = faultOf(error);
    // SQLite says only "unable to open"; a folder that cannot be written is the usual reason.
    const readOnlyFolder = fault === 'io' && !o.readOnly && path !== ':memory:' && !writable(dirname(path));
    throw fault ? storeError(readOnlyFolder ? 'read-only' : fault, url, error) : error;
  }
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
    if ((error as { code?: string }).code !== 'SQLITE_CANTOPEN' || !existsSync(path) || existsSync(`${path}-wal`)) throw error;
    const bytes = readFileSync(path);
    // Header bytes 18-19 are the read and write versions: 2 is WAL, 1 the rollback journal.
    if (bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20);
    return new Database(bytes, { readonly: true });
  }
}

/** Shortest gap between two group commits while writes keep coming. */
const MIN_FLUSH_GAP_MS = 2;

/**
 * The embedded store: one SQLite file in WAL mode. Every write is its own committed transaction
 * (or one per batch), so a kill -9 after a promise resolves never loses it.
 */
export function createSqliteStore(path: string, o: SqliteStoreOptions = {}): Store {
  const db = openDatabase(path, o);

  let statements: ReturnType<typeof prepare> | undefined;
  const st = () => (statements ??= prepare(db));

  // Group commit: writes that arrive close together share one transaction. A write's promise
  // resolves only after its transaction committed, so "resolved" still means "survives a kill -9".
  let queue: Array<{ write: () => void; resolve: () => void; reject: (e: unknown) => void }> = [];
  // Answers queued but not yet committed, so a cache lookup never has to force a commit.
  const uncommitted = new Map<string, ChatResult>();
  let scheduled = false;
  let lastFlush = 0;
  const flush = () => {
    scheduled = false;
    lastFlush = performance.now();
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    fencedInBatch = new Set();
    try {
      db.transaction(() => batch.forEach(w => w.write()))();
      uncommitted.clear();
      batch.forEach(w => w.resolve());
    } catch {
      // One bad write (a lost claim) must not fail the others: retry each on its own.
      for (const w of batch) {
        fencedInBatch = new Set();
        try {
          db.transaction(w.write)();
          w.resolve();
        } catch (e) {
          w.reject(e);
        }
      }
      uncommitted.clear();
    }
  };
  const write = (fn: () => void) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ write: fn, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // Writes that trickle in wait at most a couple of milliseconds to share a commit; a burst
        // after a quiet spell is committed on the next turn.
        const wait = MIN_FLUSH_GAP_MS - (performance.now() - lastFlush);
        if (wait > 0) setTimeout(flush, wait);
        else setImmediate(flush);
      }
    });
  const read = <T>(fn: () => T): T => {
    flush();
    return fn();
  };
  // Within one group commit a trial's claim cannot change hands: check each trial once per commit.
  let fencedInBatch = new Set<string>();
  const fenced = (runId: string, trialId: string, fence: WriteFence | undefined) => {
    if (!fence) return;
    const key = `${runId}\u0000${trialId}\u0000${fence.workerId}`;
    if (fencedInBatch.has(key)) return;
    const row = st().claimOf.get(runId, trialId) as Row | undefined;
    if (row?.worker_id !== fence.workerId) throw new ClaimLostError(runId, trialId);
    fencedInBatch.add(key);
  };

  return {
    specVersion: 'paideia.store.v2',
    url: `sqlite:${path}`,
    async init() {
      const version = db.pragma('user_version', { simple: true }) as number;
      for (let i = version; i < MIGRATIONS.length; i++) {
        db.transaction(() => {
          db.exec(MIGRATIONS[i]!);
          db.pragma(`user_version = ${i + 1}`);
        })();
      }
      st();
    },
    async close() {
      flush();
      db.close();
    },
    async openRun(run) {
      return read(() => {
        st().insertRun.run(runRow(run));
        return toRun(st().getRun.get(run.id) as Row);
      });
    },
    async getRun(id) {
      const row = read(() => st().getRun.get(id) as Row | undefined);
      return row ? toRun(row) : undefined;
    },
    async listRuns() {
      return read(() => (st().listRuns.all() as Row[]).map(toRun));
    },
    async setRunStatus(id: string, status: RunStatus, note?: string) {
      read(() => st().setStatus.run(status, new Date().toISOString(), note ?? null, id));
    },
    async saveItems(items: VersionedItem[]) {
      read(() => db.transaction(() => {
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
      read(() => db.transaction(() => {
        for (const t of trials) {
          st().insertTrial.run(...trialRow(t));
          st().insertRunItem.run(t.runId, t.itemHash);
        }
      })());
    },
    async listTrials(runId) {
      return read(() => (st().trials.all(runId) as Row[]).map(toTrial));
    },
    async listTrialStatuses(runId) {
      return read(() => new Map((st().statuses.all(runId) as Row[]).map(r => [r.id as string, r.status as 'done' | 'failed'])));
    },
    saveTrialResult(r: TrialResult, fence?: WriteFence) {
      return write(() => {
        fenced(r.runId, r.trialId, fence);
        st().setTrialStatus.run(r.status, r.runId, r.trialId);
        for (const s of r.scores ?? []) insertScore(st(), s);
        for (const j of r.judgments ?? []) insertJudgment(st(), j);
        for (const a of r.artifacts ?? []) st().putArtifact.run(r.runId, a.kind, a.key, json(a.value));
      });
    },
    saveCall(c: CallRecord, fence?: WriteFence) {
      if (c.status === 'ok' && c.result) uncommitted.set(c.requestHash, c.result);
      return write(() => {
        fenced(c.runId, c.trialId, fence);
        st().insertCall.run(
          c.runId, c.trialId, c.step, c.requestHash, json(c.request), c.status,
          c.result ? json(c.result) : null, c.error ? json(c.error) : null,
          c.attempts, c.latencyMs, c.costUsd, c.cached ? 1 : 0, c.createdAt, c.model ?? null,
        );
      });
    },
    async listCalls(runId, page = {}) {
      return read(() => {
        const limit = page.limit ?? Number.MAX_SAFE_INTEGER;
        const after = page.afterSeq ?? 0;
        if (page.trialIds) {
          const out: CallRecord[] = [];
          for (const id of page.trialIds) out.push(...(st().callsOfTrial.all(runId, id, after) as Row[]).map(toCall));
          return out.sort((a, b) => a.seq! - b.seq!).slice(0, limit);
        }
        return (st().calls.all(runId, after, Math.min(limit, Number.MAX_SAFE_INTEGER)) as Row[]).map(toCall);
      });
    },
    async findCachedResult(requestHash) {
      const pending = uncommitted.get(requestHash);
      if (pending) return pending;
      // Committed rows only: what is queued is in `uncommitted`, so no commit is forced here.
      const row = st().cached.get(requestHash) as Row | undefined;
      return row ? parse<ChatResult>(row.result) : undefined;
    },
    async spentUsd(runId) {
      return read(() => ((st().spent.get(runId) as Row).total as number | null) ?? 0);
    },
    saveScores(scores: Score[]) {
      return write(() => { for (const s of scores) insertScore(st(), s); });
    },
    async listScores(runId) {
      return read(() => (st().scores.all(runId) as Row[]).map(r => ({
        runId: r.run_id as string, trialId: r.trial_id as string,
        scorer: { name: r.scorer_name as string, version: r.scorer_version as string, args: parse(r.scorer_args) },
        value: r.value as number | null,
        ...(r.reason != null ? { reason: r.reason as string } : {}),
        ...(r.details != null ? { details: parse(r.details) } : {}),
      })));
    },
    saveJudgments(judgments: Judgment[]) {
      return write(() => { for (const j of judgments) insertJudgment(st(), j); });
    },
    async listJudgments(runId) {
      return read(() => (st().judgments.all(runId) as Row[]).map(r => parse<Judgment>(r.body)));
    },
    async claimTrials(runId, worker, trialIds, expiresAt) {
      return read(() => db.transaction(() => {
        const now = Date.now();
        const held: string[] = [];
        for (const id of trialIds) {
          const row = st().claimOf.get(runId, id) as Row | undefined;
          if (row && row.worker_id !== worker.workerId && (row.expires_at as number) > now) continue;
          st().putClaim.run(runId, id, worker.workerId, worker.pid, worker.host, expiresAt);
          held.push(id);
        }
        return held;
      }).immediate());
    },
    async claimNextTrials(runId, worker, limit, expiresAt) {
      return read(() => db.transaction(() => {
        const ids = (st().nextOpen.all(runId, worker.workerId, Date.now(), limit) as Row[]).map(r => r.id as string);
        for (const id of ids) st().putClaim.run(runId, id, worker.workerId, worker.pid, worker.host, expiresAt);
        return ids;
      }).immediate());
    },
    async renewClaims(runId, workerId, expiresAt) {
      return read(() => st().renewClaims.run(expiresAt, runId, workerId).changes);
    },
    async releaseClaims(runId, workerId) {
      read(() => db.transaction(() => {
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
      return write(() => st().release.run(runId, reservationId));
    },
    async reservedUsd(runId) {
      return read(() => ((st().reserved.get(runId) as Row).total as number | null) ?? 0);
    },
    putArtifact(runId, kind, key, value: JsonValue) {
      return write(() => st().putArtifact.run(runId, kind, key, json(value)));
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
      await write(() => st().putBlob.run(hash, mediaType, bytes.byteLength, Buffer.from(bytes)));
      return ref;
    },
    async getBlob(hash) {
      const row = read(() => st().getBlob.get(hash) as Row | undefined);
      if (!row) return undefined;
      const bytes = new Uint8Array(row.bytes as Buffer);
      return { ref: { hash, mediaType: row.media_type as string, size: row.size as number }, bytes };
    },
  };
}

type Statements = ReturnType<typeof prepare>;

function insertScore(st: Statements, s: Score): void {
  st.insertScore.run(
    s.runId, s.trialId, s.scorer.name, s.scorer.version, json(s.scorer.args),
    s.value, s.reason ?? null, s.details ? json(s.details) : null,
  );
}

function insertJudgment(st: Statements, j: Judgment): void {
  st.insertJudgment.run(j.runId, j.trialId, j.targetTrialId, j.producer.version, json(j));
}

function prepare(db: Database.Database) {
  return {
    insertRun: db.prepare(`INSERT INTO runs (id, kind, created_at, updated_at, status, config, prices, paideia_version, note)
      VALUES (@id, @kind, @created_at, @updated_at, @status, @config, @prices, @paideia_version, @note) ON CONFLICT (id) DO NOTHING`),
    getRun: db.prepare('SELECT * FROM runs WHERE id = ?'),
    listRuns: db.prepare('SELECT * FROM runs ORDER BY created_at, id'),
    setStatus: db.prepare('UPDATE runs SET status = ?, updated_at = ?, note = ? WHERE id = ?'),
    insertItem: db.prepare('INSERT INTO items (hash, id, test, body) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING'),
    insertRunItem: db.prepare('INSERT INTO run_items (run_id, item_hash) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    runItems: db.prepare(`SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
      WHERE ri.run_id = ? ORDER BY i.id, i.hash`),
    insertTrial: db.prepare(`INSERT INTO trials (run_id, id, idx, item_id, item_hash, test, model_alias, model_spec, prompt_version, repeat, seed, kind, variant, target)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    trials: db.prepare('SELECT * FROM trials WHERE run_id = ? ORDER BY idx'),
    statuses: db.prepare('SELECT id, status FROM trials WHERE run_id = ? AND status IS NOT NULL'),
    setTrialStatus: db.prepare('UPDATE trials SET status = ? WHERE run_id = ? AND id = ?'),
    insertCall: db.prepare(`INSERT INTO calls (run_id, trial_id, step, request_hash, request, status, result, error, attempts, latency_ms, cost_usd, cached, created_at, model)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    calls: db.prepare('SELECT * FROM calls WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
    callsOfTrial: db.prepare('SELECT * FROM calls WHERE run_id = ? AND trial_id = ? AND seq > ? ORDER BY seq'),
    cached: db.prepare(`SELECT result FROM calls WHERE request_hash = ? AND status = 'ok' ORDER BY seq DESC LIMIT 1`),
    spent: db.prepare('SELECT SUM(cost_usd) AS total FROM calls WHERE run_id = ?'),
    insertScore: db.prepare(`INSERT INTO scores (run_id, trial_id, scorer_name, scorer_version, scorer_args, value, reason, details)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, trial_id, scorer_name, scorer_version)
      DO UPDATE SET scorer_args = excluded.scorer_args, value = excluded.value, reason = excluded.reason, details = excluded.details`),
    scores: db.prepare('SELECT * FROM scores WHERE run_id = ? ORDER BY trial_id, scorer_name'),
    insertJudgment: db.prepare(`INSERT INTO judgments (run_id, trial_id, target_trial_id, producer_version, body) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (run_id, trial_id, producer_version) DO UPDATE SET target_trial_id = excluded.target_trial_id, body = excluded.body`),
    judgments: db.prepare('SELECT body FROM judgments WHERE run_id = ? ORDER BY target_trial_id, trial_id, producer_version'),
    putArtifact: db.prepare(`INSERT INTO artifacts (run_id, kind, key, value) VALUES (?, ?, ?, ?)
      ON CONFLICT (run_id, kind, key) DO UPDATE SET value = excluded.value`),
    artifacts: db.prepare('SELECT key, value FROM artifacts WHERE run_id = ? AND kind = ? ORDER BY key'),
    artifactKinds: db.prepare('SELECT DISTINCT kind FROM artifacts WHERE run_id = ? ORDER BY kind'),
    claimOf: db.prepare('SELECT worker_id, expires_at FROM claims WHERE run_id = ? AND trial_id = ?'),
    putClaim: db.prepare(`INSERT INTO claims (run_id, trial_id, worker_id, pid, host, expires_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, trial_id) DO UPDATE SET worker_id = excluded.worker_id, pid = excluded.pid, host = excluded.host, expires_at = excluded.expires_at`),
    nextOpen: db.prepare(`SELECT t.id FROM trials t LEFT JOIN claims c ON c.run_id = t.run_id AND c.trial_id = t.id
      WHERE t.run_id = ? AND t.status IS NULL AND (c.trial_id IS NULL OR c.worker_id = ? OR c.expires_at <= ?)
        AND (t.target IS NULL OR EXISTS (SELECT 1 FROM trials g WHERE g.run_id = t.run_id AND g.id = t.target AND g.status = 'done'))
      ORDER BY t.idx LIMIT ?`),
    renewClaims: db.prepare('UPDATE claims SET expires_at = ? WHERE run_id = ? AND worker_id = ?'),
    releaseClaims: db.prepare('DELETE FROM claims WHERE run_id = ? AND worker_id = ?'),
    holders: db.prepare(`SELECT worker_id, pid, host, MAX(expires_at) AS expires_at, COUNT(*) AS trials FROM claims
      WHERE run_id = ? GROUP BY worker_id, pid, host ORDER BY worker_id`),
    reserve: db.prepare('INSERT INTO reservations (run_id, id, worker_id, amount_usd) VALUES (?, ?, ?, ?)'),
    release: db.prepare('DELETE FROM reservations WHERE run_id = ? AND id = ?'),
    releaseReservations: db.prepare('DELETE FROM reservations WHERE run_id = ? AND worker_id = ?'),
    reserved: db.prepare('SELECT SUM(amount_usd) AS total FROM reservations WHERE run_id = ?'),
    putBlob: db.prepare('INSERT INTO blobs (hash, media_type, size, bytes) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING'),
    getBlob: db.prepare('SELECT media_type, size, bytes FROM blobs WHERE hash = ?'),
  };
}

function runRow(r: RunRecord) {
  return {
    id: r.id, kind: r.kind, created_at: r.createdAt, updated_at: r.updatedAt, status: r.status, config: json(r.config),
    prices: json(r.prices), paideia_version: r.paideiaVersion, note: r.note ?? null,
  };
}
