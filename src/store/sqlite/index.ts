import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  CallRecord, ChatResult, JsonValue, RunLease, RunRecord, RunStatus, Score, Store, Trial, VersionedItem,
} from '../../core/index.js';
import { faultOf, storeError } from '../faults.js';
import { MIGRATIONS } from './schema.js';

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

  // Group commit: writes that arrive in the same turn of the event loop share one transaction.
  // A write's promise resolves only after its transaction committed, so "resolved" still means
  // "survives a kill -9"; one commit per batch instead of per row is what makes 20,000 trials cheap.
  let queue: Array<{ write: () => void; resolve: () => void; reject: (e: unknown) => void }> = [];
  let scheduled = false;
  let lastFlush = 0;
  const flush = () => {
    scheduled = false;
    lastFlush = performance.now();
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    try {
      db.transaction(() => batch.forEach(w => w.write()))();
      batch.forEach(w => w.resolve());
    } catch {
      // One bad write must not fail the others: retry each on its own and report each outcome.
      for (const w of batch) {
        try {
          db.transaction(w.write)();
          w.resolve();
        } catch (e) {
          w.reject(e);
        }
      }
    }
  };
  const write = (fn: () => void) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ write: fn, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        // Writes that trickle in (one response at a time) wait at most a couple of milliseconds to
        // share a commit, so the event loop is not blocked by a commit per response; a burst after
        // a quiet spell is committed on the next turn.
        const wait = MIN_FLUSH_GAP_MS - (performance.now() - lastFlush);
        if (wait > 0) setTimeout(flush, wait);
        else setImmediate(flush);
      }
    });

  return {
    specVersion: 'paideia.store.v1',
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
      flush();
      st().insertRun.run(runRow(run));
      return toRun(st().getRun.get(run.id) as Row);
    },
    async getRun(id) {
      flush();
      const row = st().getRun.get(id) as Row | undefined;
      return row ? toRun(row) : undefined;
    },
    async listRuns() {
      flush();
      return (st().listRuns.all() as Row[]).map(toRun);
    },
    async setRunStatus(id: string, status: RunStatus, note?: string) {
      flush();
      st().setStatus.run(status, new Date().toISOString(), note ?? null, id);
    },
    async saveItems(items: VersionedItem[]) {
      flush();
      db.transaction(() => {
        for (const v of items) st().insertItem.run(v.hash, v.item.id, v.item.test, json(v.item));
      })();
    },
    async listRunItems(runId) {
      flush();
      return (st().runItems.all(runId) as Row[]).map(r => ({
        item: parse(r.body),
        hash: r.hash as string,
        ...(r.file ? { file: r.file as string } : {}),
        ...(r.line ? { line: r.line as number } : {}),
      }));
    },
    async saveTrials(trials: Trial[]) {
      flush();
      db.transaction(() => {
        for (const t of trials) {
          st().insertTrial.run(t.runId, t.id, t.index, t.itemId, t.itemHash, t.test, t.modelAlias, t.modelSpec, t.promptVersion, t.repeat, t.seed);
          st().insertRunItem.run(t.runId, t.itemHash);
        }
      })();
    },
    async listTrials(runId) {
      flush();
      return (st().trials.all(runId) as Row[]).map(r => ({
        id: r.id as string, runId: r.run_id as string, index: r.idx as number, itemId: r.item_id as string,
        itemHash: r.item_hash as string, test: r.test as string, modelAlias: r.model_alias as string,
        modelSpec: r.model_spec as string, promptVersion: r.prompt_version as string,
        repeat: r.repeat as number, seed: r.seed as number,
      }));
    },
    saveCall(c: CallRecord) {
      return write(() => st().insertCall.run(
        c.runId, c.trialId, c.step, c.requestHash, json(c.request), c.status,
        c.result ? json(c.result) : null, c.error ? json(c.error) : null,
        c.attempts, c.latencyMs, c.costUsd, c.cached ? 1 : 0, c.createdAt,
      ));
    },
    async listCalls(runId) {
      flush();
      return (st().calls.all(runId) as Row[]).map(toCall);
    },
    async findCachedResult(requestHash) {
      flush();
      const row = st().cached.get(requestHash) as Row | undefined;
      return row ? parse<ChatResult>(row.result) : undefined;
    },
    saveScores(scores: Score[]) {
      return write(() => {
        for (const s of scores) {
          st().insertScore.run(
            s.runId, s.trialId, s.scorer.name, s.scorer.version, json(s.scorer.args),
            s.value, s.reason ?? null, s.details ? json(s.details) : null,
          );
        }
      });
    },
    async listScores(runId) {
      flush();
      return (st().scores.all(runId) as Row[]).map(r => ({
        runId: r.run_id as string, trialId: r.trial_id as string,
        scorer: { name: r.scorer_name as string, version: r.scorer_version as string, args: parse(r.scorer_args) },
        value: r.value as number | null,
        ...(r.reason != null ? { reason: r.reason as string } : {}),
        ...(r.details != null ? { details: parse(r.details) } : {}),
      }));
    },
    async getRunLease(runId: string) {
      flush();
      const row = st().getLease.get(runId) as Row | undefined;
      return row ? parse<RunLease>(row.body) : undefined;
    },
    async swapRunLease(runId: string, expectedHolderId: string | null, lease: RunLease | null) {
      flush();
      // IMMEDIATE takes the write lock before reading, so two processes cannot both see the old holder.
      return db.transaction(() => {
        const row = st().getLease.get(runId) as Row | undefined;
        if (((row?.holder_id as string | undefined) ?? null) !== expectedHolderId) return false;
        if (lease) st().putLease.run(runId, lease.holderId, json(lease));
        else st().deleteLease.run(runId);
        return true;
      }).immediate();
    },
    putArtifact(runId, kind, key, value: JsonValue) {
      return write(() => st().putArtifact.run(runId, kind, key, json(value)));
    },
    async listArtifacts(runId, kind) {
      flush();
      return (st().artifacts.all(runId, kind) as Row[]).map(r => ({ key: r.key as string, value: parse(r.value) }));
    },
  };
}

function prepare(db: Database.Database) {
  return {
    insertRun: db.prepare(`INSERT INTO runs (id, created_at, updated_at, status, config, prices, paideia_version, note)
      VALUES (@id, @created_at, @updated_at, @status, @config, @prices, @paideia_version, @note) ON CONFLICT (id) DO NOTHING`),
    getRun: db.prepare('SELECT * FROM runs WHERE id = ?'),
    listRuns: db.prepare('SELECT * FROM runs ORDER BY created_at, id'),
    setStatus: db.prepare('UPDATE runs SET status = ?, updated_at = ?, note = ? WHERE id = ?'),
    insertItem: db.prepare('INSERT INTO items (hash, id, test, body) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING'),
    insertRunItem: db.prepare('INSERT INTO run_items (run_id, item_hash) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    runItems: db.prepare(`SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
      WHERE ri.run_id = ? ORDER BY i.id, i.hash`),
    insertTrial: db.prepare(`INSERT INTO trials (run_id, id, idx, item_id, item_hash, test, model_alias, model_spec, prompt_version, repeat, seed)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    trials: db.prepare('SELECT * FROM trials WHERE run_id = ? ORDER BY idx'),
    insertCall: db.prepare(`INSERT INTO calls (run_id, trial_id, step, request_hash, request, status, result, error, attempts, latency_ms, cost_usd, cached, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    calls: db.prepare('SELECT * FROM calls WHERE run_id = ? ORDER BY seq'),
    cached: db.prepare(`SELECT result FROM calls WHERE request_hash = ? AND status = 'ok' ORDER BY seq DESC LIMIT 1`),
    insertScore: db.prepare(`INSERT INTO scores (run_id, trial_id, scorer_name, scorer_version, scorer_args, value, reason, details)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, trial_id, scorer_name, scorer_version)
      DO UPDATE SET scorer_args = excluded.scorer_args, value = excluded.value, reason = excluded.reason, details = excluded.details`),
    scores: db.prepare('SELECT * FROM scores WHERE run_id = ? ORDER BY trial_id, scorer_name'),
    putArtifact: db.prepare(`INSERT INTO artifacts (run_id, kind, key, value) VALUES (?, ?, ?, ?)
      ON CONFLICT (run_id, kind, key) DO UPDATE SET value = excluded.value`),
    artifacts: db.prepare('SELECT key, value FROM artifacts WHERE run_id = ? AND kind = ? ORDER BY key'),
    getLease: db.prepare('SELECT holder_id, body FROM leases WHERE run_id = ?'),
    putLease: db.prepare(`INSERT INTO leases (run_id, holder_id, body) VALUES (?, ?, ?)
      ON CONFLICT (run_id) DO UPDATE SET holder_id = excluded.holder_id, body = excluded.body`),
    deleteLease: db.prepare('DELETE FROM leases WHERE run_id = ?'),
  };
}

function runRow(r: RunRecord) {
  return {
    id: r.id, created_at: r.createdAt, updated_at: r.updatedAt, status: r.status, config: json(r.config),
    prices: json(r.prices), paideia_version: r.paideiaVersion, note: r.note ?? null,
  };
}

function toRun(r: Row): RunRecord {
  return {
    id: r.id as string, createdAt: r.created_at as string, updatedAt: r.updated_at as string,
    status: r.status as RunStatus, config: parse(r.config), prices: parse(r.prices),
    paideiaVersion: r.paideia_version as string, ...(r.note != null ? { note: r.note as string } : {}),
  };
}

function toCall(r: Row): CallRecord {
  return {
    runId: r.run_id as string, trialId: r.trial_id as string, step: r.step as number,
    requestHash: r.request_hash as string, request: parse(r.request), status: r.status as 'ok' | 'error',
    ...(r.result != null ? { result: parse<ChatResult>(r.result) } : {}),
    ...(r.error != null ? { error: parse(r.error) } : {}),
    attempts: r.attempts as number, latencyMs: r.latency_ms as number, costUsd: r.cost_usd as number,
    cached: r.cached === 1, createdAt: r.created_at as string,
  };
}
