import type Database from 'better-sqlite3';
import type { JsonValue, Judgment, Score } from '../../core/index.js';
import type { BatchSql } from './write-batch.js';

const json = (v: unknown): string => JSON.stringify(v);

// A run's scores share a few args objects (one per scorer): each is written out once.
const argsJsonCache = new WeakMap<object, string>();
function argsJson(args: JsonValue): string {
  if (args === null || typeof args !== 'object') return json(args);
  let text = argsJsonCache.get(args);
  if (text === undefined) argsJsonCache.set(args, (text = json(args)));
  return text;
}

/** The arguments of insertScore. */
export function scoreArgs(s: Score): unknown[] {
  return [
    s.runId, s.trialId, s.runId, s.trialId, s.scorer.name, s.scorer.version, argsJson(s.scorer.args),
    s.value, s.reason ?? null, s.details ? json(s.details) : null,
  ];
}

/** The arguments of insertJudgment: (run, trial, target, producer version, body, callSeq, run, run, trial, trial). */
export function judgmentArgs(j: Judgment): unknown[] {
  return [j.runId, j.trialId, j.targetTrialId, j.producer.version, json(j), j.callSeq, j.runId, j.runId, j.trialId, j.trialId];
}

/**
 * A call's or score's trial plan index, from the trial's row (`run` and `id` are SQL expressions);
 * -1 for a trial the store does not hold. Calls and scores are keyed by it (migration 8).
 */
const trialIdx = (run: string, id: string) => `COALESCE((SELECT t.idx FROM trials t WHERE t.run_id = ${run} AND t.id = ${id}), -1)`;

/** Every statement the store runs, by name. */
const SQL = {
  insertRun: `INSERT INTO runs (id, kind, created_at, updated_at, status, config, prices, paideia_version, note)
    VALUES (@id, @kind, @created_at, @updated_at, @status, @config, @prices, @paideia_version, @note) ON CONFLICT (id) DO NOTHING`,
  getRun: 'SELECT * FROM runs WHERE id = ?',
  listRuns: 'SELECT * FROM runs ORDER BY created_at, id',
  setStatus: 'UPDATE runs SET status = ?, updated_at = ?, note = ? WHERE id = ?',
  insertItem: 'INSERT INTO items (hash, id, test, body) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING',
  insertRunItem: 'INSERT INTO run_items (run_id, item_hash) VALUES (?, ?) ON CONFLICT DO NOTHING',
  runItems: `SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
    WHERE ri.run_id = ? ORDER BY i.id, i.hash`,
  insertTrial: `INSERT INTO trials (run_id, id, idx, item_id, item_hash, test, model_alias, model_spec, prompt_version, repeat, seed, kind, variant, target)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  trials: 'SELECT * FROM trials WHERE run_id = ? ORDER BY idx',
  // Through the two partial indexes of migration 7, whose order is the rows' insert order, so the
  // run's rows are read one page after another instead of one page per row (by the primary key's
  // order, random ids): at 200,000 trials ten times faster. (runId) once: the CTE binds it to both.
  statuses: `WITH r (id) AS (SELECT ?)
    SELECT id, status FROM trials INDEXED BY trials_top WHERE run_id = (SELECT id FROM r) AND target IS NULL AND status IS NOT NULL
    UNION ALL
    SELECT id, status FROM trials INDEXED BY trials_by_target WHERE run_id = (SELECT id FROM r) AND target IS NOT NULL AND status IS NOT NULL`,
  // Reads of a page of a large run: by the partial indexes of migration 7 and by primary keys.
  trialsOf: 'SELECT * FROM trials WHERE run_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY idx',
  topTrials: 'SELECT * FROM trials WHERE run_id = ? AND target IS NULL ORDER BY idx LIMIT ? OFFSET ?',
  topCount: 'SELECT COUNT(*) AS n FROM trials WHERE run_id = ? AND target IS NULL',
  judgeTrials: 'SELECT * FROM trials WHERE run_id = ? AND target IN (SELECT value FROM json_each(?)) ORDER BY idx',
  statusCounts: `SELECT kind, COALESCE(status, 'pending') AS status, COUNT(*) AS n, MIN(idx) AS first FROM trials WHERE run_id = ?
    GROUP BY kind, COALESCE(status, 'pending') ORDER BY first`,
  statusesOf: 'SELECT id, status FROM trials WHERE run_id = ? AND id IN (SELECT value FROM json_each(?)) AND status IS NOT NULL',
  setTrialStatus: 'UPDATE trials SET status = ? WHERE run_id = ? AND id = ?',
  setTrialStatuses: 'UPDATE trials SET status = ? WHERE run_id = ? AND id IN (SELECT value FROM json_each(?))',
  // (runId, trialId, runId, trialId, ...): the trial's plan index is looked up from its row (see trialIdx).
  insertCall: `INSERT INTO calls (run_id, trial_id, trial_idx, step, request_hash, request, status, result, error, attempts, latency_ms, cost_usd, cached, created_at, model, endpoint)
    VALUES (?, ?, ${trialIdx('?', '?')}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  calls: 'SELECT * FROM calls WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  // (runId, trialId, runId, trialId, afterSeq).
  callsOfTrial: `SELECT * FROM calls WHERE run_id = ? AND trial_id = ? AND trial_idx = ${trialIdx('?', '?')} AND seq > ? ORDER BY seq`,
  cached: `SELECT result FROM calls WHERE request_hash = ? AND status = 'ok' ORDER BY seq DESC LIMIT 1`,
  spent: 'SELECT SUM(cost_usd) AS total FROM calls WHERE run_id = ?',
  // (runId, trialId, runId, trialId, ...), as insertCall.
  insertScore: `INSERT INTO scores (run_id, trial_id, trial_idx, scorer_name, scorer_version, scorer_args, value, reason, details)
    VALUES (?, ?, ${trialIdx('?', '?')}, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, trial_idx, trial_id, scorer_name, scorer_version)
    DO UPDATE SET scorer_args = excluded.scorer_args, value = excluded.value, reason = excluded.reason, details = excluded.details`,
  scores: 'SELECT * FROM scores WHERE run_id = ? ORDER BY trial_id, scorer_name, scorer_version',
  // ({ run, ids: JSON trial ids }): a primary-key range per trial, found by its plan index.
  scoresOf: `SELECT s.* FROM (SELECT DISTINCT value FROM json_each(@ids)) AS j
    CROSS JOIN scores AS s ON s.run_id = @run AND s.trial_idx = ${trialIdx('@run', 'j.value')} AND s.trial_id = j.value
    ORDER BY s.trial_id, s.scorer_name, s.scorer_version`,
  // A judgment whose step left callSeq null points at its trial's newest stored call (the answer it
  // was read from: the last format retry), found here because the call may be committed in this
  // very batch; null when the trial has no stored call.
  insertJudgment: `INSERT INTO judgments (run_id, trial_id, target_trial_id, producer_version, body) VALUES (?, ?, ?, ?,
      json_set(?, '$.callSeq', COALESCE(CAST(? AS INTEGER), (SELECT MAX(c.seq) FROM calls c WHERE c.run_id = ? AND c.trial_idx = ${trialIdx('?', '?')} AND c.trial_id = ?))))
    ON CONFLICT (run_id, trial_id, producer_version) DO UPDATE SET target_trial_id = excluded.target_trial_id, body = excluded.body`,
  judgments: 'SELECT body FROM judgments WHERE run_id = ? ORDER BY target_trial_id, trial_id, producer_version',
  judgmentsOf: `SELECT body FROM judgments WHERE run_id = ? AND target_trial_id IN (SELECT value FROM json_each(?))
    ORDER BY target_trial_id, trial_id, producer_version`,
  putArtifact: `INSERT INTO artifacts (run_id, kind, key, value) VALUES (?, ?, ?, ?)
    ON CONFLICT (run_id, kind, key) DO UPDATE SET value = excluded.value`,
  artifacts: 'SELECT key, value FROM artifacts WHERE run_id = ? AND kind = ? ORDER BY key',
  artifactKinds: 'SELECT DISTINCT kind FROM artifacts WHERE run_id = ? ORDER BY kind',
  // (runId, workerId, now, limit): open trials nobody else holds, a judge only once its target is done.
  nextOpen: `SELECT t.id FROM trials t LEFT JOIN claims c ON c.run_id = t.run_id AND c.trial_id = t.id
    WHERE t.run_id = ? AND t.status IS NULL AND (c.trial_id IS NULL OR c.worker_id = ? OR c.expires_at <= ?)
      AND (t.target IS NULL OR EXISTS (SELECT 1 FROM trials g WHERE g.run_id = t.run_id AND g.id = t.target AND g.status = 'done'))
    ORDER BY t.idx LIMIT ?`,
  claimOf: 'SELECT worker_id, expires_at FROM claims WHERE run_id = ? AND trial_id = ?',
  // (runId, workerId, pid, host, expiresAt, JSON trial ids, now): claim each that nobody holds, whose claim expired, or that this worker holds.
  putClaims: `INSERT INTO claims (run_id, trial_id, worker_id, pid, host, expires_at)
    SELECT ?, value, ?, ?, ?, ? FROM json_each(?) WHERE true
    ON CONFLICT (run_id, trial_id) DO UPDATE SET worker_id = excluded.worker_id, pid = excluded.pid, host = excluded.host, expires_at = excluded.expires_at
    WHERE claims.worker_id = excluded.worker_id OR claims.expires_at <= ?
    RETURNING trial_id`,
  // CROSS JOIN keeps this order: a primary-key lookup per id, not a scan of the worker's claims.
  heldOf: `SELECT c.trial_id FROM json_each(?) AS j CROSS JOIN claims AS c ON c.run_id = ? AND c.trial_id = j.value
    WHERE c.worker_id = ?`,
  renewClaims: 'UPDATE claims SET expires_at = ? WHERE run_id = ? AND worker_id = ?',
  releaseClaims: 'DELETE FROM claims WHERE run_id = ? AND worker_id = ?',
  holders: `SELECT worker_id, pid, host, MAX(expires_at) AS expires_at, COUNT(*) AS trials FROM claims
    WHERE run_id = ? GROUP BY worker_id, pid, host ORDER BY worker_id`,
  reserve: 'INSERT INTO reservations (run_id, id, worker_id, amount_usd) VALUES (?, ?, ?, ?)',
  release: 'DELETE FROM reservations WHERE run_id = ? AND id = ?',
  releaseReservations: 'DELETE FROM reservations WHERE run_id = ? AND worker_id = ?',
  reserved: 'SELECT SUM(amount_usd) AS total FROM reservations WHERE run_id = ?',
  putBlob: 'INSERT INTO blobs (hash, media_type, size, bytes) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING',
  getBlob: 'SELECT media_type, size, bytes FROM blobs WHERE hash = ?',
};

export type Statements = { [K in keyof typeof SQL]: Database.Statement };

/** What the group commit's batches run (write-batch.ts), wherever they are committed. */
export const BATCH_SQL: BatchSql = {
  insertCall: SQL.insertCall, insertScore: SQL.insertScore, insertJudgment: SQL.insertJudgment, putArtifact: SQL.putArtifact,
  release: SQL.release, putBlob: SQL.putBlob, heldOf: SQL.heldOf, claimOf: SQL.claimOf,
  setTrialStatus: SQL.setTrialStatus, setTrialStatuses: SQL.setTrialStatuses,
};

/** Each statement prepared once, when the store first needs one. */
export function prepare(db: Database.Database): Statements {
  return Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Statements;
}
