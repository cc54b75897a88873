import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  ClaimLostError, ConfigError,
  type CallRecord, type ChatResult, type JsonValue, type Judgment, type Score, type Store, type Trial, type WriteFence,
} from '../../core/index.js';
import { statusCount, toCall, toRun, toTrial, trialRow } from '../sqlite/rows.js';
import { checkUrl, checkout, createPool, openError, publicUrl, withRetry } from './connect.js';
import { deleteRunPostgres } from './delete-run.js';
import { SQL } from './queries.js';
import { MIGRATIONS } from './schema.js';
import { postgresTrialPages } from './trial-pages.js';
import { inTrialOrder } from './trial-order.js';
import { slotChange } from '../permit-bucket.js';

type Row = Record<string, unknown>;
type Query = { name: string; text: string };
const json = (v: unknown): string => JSON.stringify(v);
const parse = <T>(v: unknown): T => JSON.parse(v as string) as T;

export interface PostgresStoreOptions {
  /** Only read (report, runs): every transaction is read-only and no migration runs. */
  readOnly?: boolean;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** How long a call keeps retrying while the server is away (default 120 s), e.g. during a restart. */
  retryForMs?: number;
}

/** Rows per statement when a batch is written (parameters are arrays, so this bounds memory only). */
const BATCH = 5000;

/**
 * The shared store: one PostgreSQL database that any number of workers on any machines use at
 * once. Every write is committed when its promise resolves; writes given a fence check the
 * writer's claim in the same transaction; the work queue hands out trials with SKIP LOCKED;
 * budget reservations of a run take turns under one lock. A connection lost mid-run (a server
 * restart) is retried with backoff, and retried writes are stored once.
 */
export function createPostgresStore(url: string, o: PostgresStoreOptions = {}): Store {
  checkUrl(url);
  const pool = createPool(url, { readOnly: o.readOnly ?? false, max: o.poolSize ?? 10 });
  const retryFor = o.retryForMs ?? 120_000;
  // Since when the server has not answered (a retry under way), for the web app to say so.
  let down: { since: Date; error: string } | undefined;
  const health = {
    // Since the first failure; why, as of the last.
    failing: (error: unknown) => { down = { since: down?.since ?? new Date(), error: String((error as { code?: unknown }).code ?? (error as Error).message) }; },
    answered: () => { down = undefined; },
    downForMs: () => (down ? Date.now() - down.since.getTime() : 0),
  };
  const run = <R extends Row = Row>(query: Query, values: unknown[] = []) =>
    withRetry(async () => (await pool.query<R>({ ...query, values })).rows, retryFor, health);
  /** A transaction, run again as a whole when the connection failed under it (its writes are idempotent). */
  const tx = <T>(fn: (c: pg.PoolClient) => Promise<T>) => withRetry(async () => {
    const { client, release } = await checkout(pool);
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      release();
      return out;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      release(true);
      throw error;
    }
  }, retryFor, health);
  const on = <R extends Row = Row>(c: pg.PoolClient, query: Query, values: unknown[]) => c.query<R>({ ...query, values }).then(r => r.rows);
  const fenced = async (c: pg.PoolClient, runId: string, trialId: string, fence: WriteFence | undefined) => {
    if (fence && (await on(c, SQL.claimHeld, [runId, trialId, fence.workerId])).length === 0) throw new ClaimLostError(runId, trialId);
  };
  const ordered = inTrialOrder();
  const total = async (query: Query, runId: string) => Number((await run(query, [runId]))[0]!.total);
  const scoreValues = (s: Score) => [s.runId, s.trialId, s.scorer.name, s.scorer.version, json(s.scorer.args), s.value, s.reason ?? null, s.details ? json(s.details) : null];
  const judgmentValues = (j: Judgment) => [j.runId, j.trialId, j.targetTrialId, j.producer.version, json(j)];
  // A judgment whose step left callSeq null points at its trial's newest stored call (the answer it
  // was read from: the last format retry). A trial's writes are in order (inTrialOrder), so its
  // call is committed by the time its judgment is written.
  const withCallSeqs = async (judgments: Judgment[]): Promise<Judgment[]> => {
    const open = judgments.filter(j => j.callSeq === null);
    if (open.length === 0) return judgments;
    const newest = new Map<string, number>();
    for (const runId of new Set(open.map(j => j.runId))) {
      const rows = await run(SQL.newestCalls, [runId, [...new Set(open.filter(j => j.runId === runId).map(j => j.trialId))]]);
      for (const r of rows) newest.set(`${runId}\u0000${r.trial_id as string}`, Number(r.seq));
    }
    return judgments.map(j => (j.callSeq === null ? { ...j, callSeq: newest.get(`${j.runId}\u0000${j.trialId}`) ?? null } : j));
  };

  return {
    specVersion: 'paideia.store.v2',
    url: publicUrl(url),
    async init() {
      try {
        if (o.readOnly) {
          const found = await pool.query(`SELECT to_regclass('paideia_migrations') AS t`);
          if (!found.rows[0]?.t) throw new ConfigError([{ field: '--store', message: `no Paideia store in ${publicUrl(url)} yet; run something first (paideia run ... --store ${publicUrl(url)})` }]);
          return;
        }
        await migrate(pool);
      } catch (error) {
        await pool.end().catch(() => undefined);
        throw openError(url, error);
      }
    },
    async close() {
      await pool.end();
    },
    unavailable() {
      if (!down) return undefined;
      const retrying = health.downForMs() < retryFor ? `the store retries it for ${retryFor / 1000} s` : `the store gave up retrying it after ${retryFor / 1000} s (runs writing to it stopped)`;
      return `the PostgreSQL server of the store ${publicUrl(url)} has not answered since ${down.since.toISOString()} (${down.error}); ${retrying}`;
    },
    async openRun(r) {
      await run(SQL.insertRun, [r.id, r.kind, r.createdAt, r.updatedAt, r.status, json(r.config), json(r.prices), r.paideiaVersion, r.note ?? null]);
      return toRun((await run(SQL.getRun, [r.id]))[0]!);
    },
    async getRun(id) {
      const row = (await run(SQL.getRun, [id]))[0];
      return row ? toRun(row) : undefined;
    },
    async listRuns() {
      return (await run(SQL.listRuns)).map(toRun);
    },
    async setRunStatus(id, status, note) {
      await run(SQL.setStatus, [status, new Date().toISOString(), note ?? null, id]);
    },
    async saveItems(items) {
      for (let i = 0; i < items.length; i += BATCH) {
        const page = items.slice(i, i + BATCH);
        await run(SQL.insertItems, [page.map(v => v.hash), page.map(v => v.item.id), page.map(v => v.item.test), page.map(v => json(v.item))]);
      }
    },
    async listRunItems(runId) {
      return (await run(SQL.runItems, [runId])).map(r => ({
        item: parse(r.body), hash: r.hash as string,
        ...(r.file ? { file: r.file as string } : {}), ...(r.line ? { line: r.line as number } : {}),
      }));
    },
    async saveTrials(trials: Trial[]) {
      for (let i = 0; i < trials.length; i += BATCH) {
        const rows = trials.slice(i, i + BATCH).map(trialRow);
        const columns = rows[0]!.map((_, k) => rows.map(r => r[k]));
        await tx(async c => {
          await on(c, SQL.insertTrials, columns);
          for (const runId of new Set(trials.slice(i, i + BATCH).map(t => t.runId))) {
            await on(c, SQL.insertRunItems, [runId, [...new Set(trials.slice(i, i + BATCH).filter(t => t.runId === runId).map(t => t.itemHash))]]);
          }
        });
      }
    },
    async listTrials(runId, only = {}) {
      return (await (only.trialIds ? run(SQL.trialsOf, [runId, [...only.trialIds]]) : run(SQL.trials, [runId]))).map(r => toTrial(r));
    },
    async listTopTrials(runId, window) {
      const [rows, count] = await Promise.all([run(SQL.topTrials, [runId, window.limit, window.offset]), run(SQL.topCount, [runId])]);
      return { trials: rows.map(r => toTrial(r)), total: count[0]!.n as number };
    },
    async listJudgeTrials(runId, targetIds) {
      return (await run(SQL.judgeTrials, [runId, [...targetIds]])).map(r => toTrial(r));
    },
    async countTrialStatuses(runId) {
      return (await run(SQL.statusCounts, [runId])).map(statusCount);
    },
    async listTrialStatuses(runId, only = {}) {
      const rows = await (only.trialIds ? run(SQL.statusesOf, [runId, [...only.trialIds]]) : run(SQL.statuses, [runId]));
      return new Map(rows.map(r => [r.id as string, r.status as 'done' | 'failed']));
    },
    saveTrialResult: (r, fence) => ordered(r.runId, r.trialId, async () => {
      // Later entries of one key win, as they do written one by one; one statement may touch a row once.
      const last = <T>(xs: T[], key: (x: T) => string) => [...new Map(xs.map(x => [key(x), x])).values()];
      const scores = last(r.scores ?? [], s => `${s.trialId}\u0000${s.scorer.name}\u0000${s.scorer.version}`);
      const judgments = await withCallSeqs(last(r.judgments ?? [], j => `${j.trialId}\u0000${j.producer.version}`));
      const artifacts = last(r.artifacts ?? [], a => `${a.kind}\u0000${a.key}`);
      const rows = await run(SQL.saveResult, [
        r.status, r.runId, r.trialId, fence?.workerId ?? null,
        scores.map(s => s.trialId), scores.map(s => s.scorer.name), scores.map(s => s.scorer.version), scores.map(s => json(s.scorer.args)), scores.map(s => s.value),
        scores.map(s => s.reason ?? null), scores.map(s => (s.details ? json(s.details) : null)),
        judgments.map(j => j.trialId), judgments.map(j => j.targetTrialId), judgments.map(j => j.producer.version), judgments.map(j => json(j)),
        artifacts.map(a => a.kind), artifacts.map(a => a.key), artifacts.map(a => json(a.value)),
      ]);
      if (rows[0]!.ok !== true) throw new ClaimLostError(r.runId, r.trialId);
    }),
    saveCall: (c: CallRecord, fence?: WriteFence) => ordered(c.runId, c.trialId, async () => {
      const values = [
        randomUUID(), c.runId, c.trialId, c.step, c.requestHash, json(c.request), c.status, c.result ? json(c.result) : null,
        c.error ? json(c.error) : null, c.attempts, c.latencyMs, c.costUsd, c.cached ? 1 : 0, c.createdAt, c.model ?? null, c.endpoint ?? null,
      ];
      if (!fence) {
        await run(SQL.insertCall, values);
        return;
      }
      if ((await run(SQL.insertFencedCall, [...values, fence.workerId])).length === 0) throw new ClaimLostError(c.runId, c.trialId);
    }),
    async listCalls(runId, page = {}) {
      const limit = page.limit ?? null;
      const rows = page.trialIds
        ? await run(SQL.callsOfTrials, [runId, [...page.trialIds], page.afterSeq ?? 0, limit])
        : await run(SQL.calls, [runId, page.afterSeq ?? 0, limit]);
      return rows.map(r => toCall(r));
    },
    async findCachedResult(requestHash) {
      const row = (await run(SQL.cached, [requestHash]))[0];
      return row ? parse<ChatResult>(row.result) : undefined;
    },
    spentUsd: runId => total(SQL.spent, runId),
    async saveScores(scores) {
      if (scores.length) await tx(async c => { for (const s of scores) await on(c, SQL.insertScore, scoreValues(s)); });
    },
    async listScores(runId, only = {}) {
      const rows = await (only.trialIds ? run(SQL.scoresOf, [runId, [...only.trialIds]]) : run(SQL.scores, [runId]));
      return rows.map(r => ({
        runId: r.run_id as string, trialId: r.trial_id as string,
        scorer: { name: r.scorer_name as string, version: r.scorer_version as string, args: parse(r.scorer_args) },
        value: r.value as number | null,
        ...(r.reason != null ? { reason: r.reason as string } : {}),
        ...(r.details != null ? { details: parse(r.details) } : {}),
      }));
    },
    async saveJudgments(judgments) {
      if (judgments.length === 0) return;
      const complete = await withCallSeqs(judgments);
      await tx(async c => { for (const j of complete) await on(c, SQL.insertJudgment, judgmentValues(j)); });
    },
    async listJudgments(runId, only = {}) {
      const rows = await (only.targetTrialIds ? run(SQL.judgmentsOf, [runId, [...only.targetTrialIds]]) : run(SQL.judgments, [runId]));
      return rows.map(r => parse<Judgment>(r.body));
    },
    async claimTrials(runId, worker, trialIds, expiresAt) {
      const got = new Set((await run(SQL.claim, [runId, [...new Set(trialIds)], worker.workerId, worker.pid, worker.host, expiresAt, Date.now()])).map(r => r.trial_id as string));
      return [...new Set(trialIds)].filter(id => got.has(id));
    },
    async claimNextTrials(runId, worker, limit, expiresAt) {
      const rows = await run(SQL.claimNext, [runId, worker.workerId, worker.pid, worker.host, expiresAt, Date.now(), limit]);
      return rows.map(r => r.trial_id as string);
    },
    async renewClaims(runId, workerId, expiresAt) {
      return withRetry(async () => (await pool.query({ ...SQL.renewClaims, values: [expiresAt, runId, workerId] })).rowCount ?? 0, retryFor, health);
    },
    async releaseClaims(runId, workerId) {
      await tx(async c => {
        await on(c, SQL.releaseClaims, [runId, workerId]);
        await on(c, SQL.releaseReservations, [runId, workerId]);
      });
    },
    async listClaimHolders(runId) {
      return (await run(SQL.holders, [runId])).map(r => ({
        runId, workerId: r.worker_id as string, pid: r.pid as number, host: r.host as string, expiresAt: r.expires_at as number, trials: r.trials as number,
      }));
    },
    async reserveBudget(runId, r, capUsd) {
      return tx(async c => {
        await on(c, SQL.lockRunBudget, [runId]);
        // A retry of a reservation that did commit finds it in place.
        if ((await on(c, SQL.reservationExists, [runId, r.id])).length) return true;
        const spent = Number((await on(c, SQL.spent, [runId]))[0]!.total);
        const reserved = Number((await on(c, SQL.reserved, [runId]))[0]!.total);
        if (spent + reserved + r.amountUsd > capUsd) return false;
        await on(c, SQL.reserve, [runId, r.id, r.workerId, r.amountUsd]);
        return true;
      });
    },
    async releaseBudget(runId, reservationId) {
      await run(SQL.release, [runId, reservationId]);
    },
    reservedUsd: runId => total(SQL.reserved, runId),
    async putArtifact(runId, kind, key, value: JsonValue) {
      await run(SQL.putArtifact, [runId, kind, key, json(value)]);
    },
    async listArtifacts(runId, kind) {
      return (await run(SQL.artifacts, [runId, kind])).map(r => ({ key: r.key as string, value: parse(r.value) }));
    },
    async listArtifactKinds(runId) {
      return (await run(SQL.artifactKinds, [runId])).map(r => r.kind as string);
    },
    async takePermits(b, want, atLeast) {
      const row = (await run(SQL.takePermits, [b.key, b.capacity, b.perSecond / 1000, want, atLeast]))[0]!;
      return { granted: Number(row.granted), waitMs: Number(row.wait_ms) };
    },
    async returnPermits(b, amount) {
      // Not retried: a return that did commit before the connection broke would count twice, and
      // over-returning could let workers pass the rate; a lost return only wastes permits.
      await pool.query({ ...SQL.returnPermits, values: [b.key, b.capacity, amount] });
    },
    async holdSlots(key, max, holder, delta, ttlMs) {
      return tx(async c => {
        const now = Number((await on(c, SQL.lockSlots, [key]))[0]!.now);
        await on(c, SQL.dropExpiredSlots, [key, now]);
        const { total, mine } = (await on(c, SQL.slotsHeld, [key, holder]))[0] as { total: number; mine: number };
        const change = slotChange(delta, total, mine, max);
        if (mine + change > 0) await on(c, SQL.putSlots, [key, holder, mine + change, now + ttlMs]);
        else await on(c, SQL.dropSlots, [key, holder]);
        return change;
      });
    },
    async putBlob(bytes, mediaType) {
      const hash = createHash('sha256').update(bytes).digest('hex');
      await run(SQL.putBlob, [hash, mediaType, bytes.byteLength, Buffer.from(bytes)]);
      return { hash, mediaType, size: bytes.byteLength };
    },
    async getBlob(hash) {
      const row = (await run(SQL.getBlob, [hash]))[0];
      if (!row) return undefined;
      return { ref: { hash, mediaType: row.media_type as string, size: row.size as number }, bytes: new Uint8Array(row.bytes as Buffer) };
    },
    deleteRun: (runId, d = {}) => tx(c => deleteRunPostgres(c, runId, d.force ?? false)),
    ...postgresTrialPages(tx, run),
  };
}

/** Apply the migrations not yet recorded, one transaction each, under a lock every worker shares. */
async function migrate(pool: pg.Pool): Promise<void> {
  const { client, release } = await checkout(pool);
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('paideia.migrations', 0))`);
    // Created only when missing: CREATE ... IF NOT EXISTS still asks for the right to create, which
    // a user granted only the use of tables another user made does not have.
    const made = (await client.query(`SELECT to_regclass('paideia_migrations') AS t`)).rows[0]?.t;
    if (!made) await client.query('CREATE TABLE paideia_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM paideia_migrations')).rows.map(r => r.version));
    for (let i = 0; i < MIGRATIONS.length; i++) {
      if (done.has(i + 1)) continue;
      await client.query(MIGRATIONS[i]!);
      await client.query('INSERT INTO paideia_migrations (version) VALUES ($1)', [i + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
}
