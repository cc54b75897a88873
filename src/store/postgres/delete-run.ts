import type pg from 'pg';
import { RunInUseError, type DeletedRun } from '../../core/index.js';
import { blobHashesIn, BLOB_MARK } from '../blob-refs.js';

/** Columns that may name a blob by hash (JSON text), per table. */
const BLOB_COLUMNS: ReadonlyArray<[table: string, column: string]> = [
  ['artifacts', 'value'], ['calls', 'request'], ['calls', 'result'], ['judgments', 'body'], ['scores', 'details'],
];

/** Tables whose rows are the run's own, deleted by run id (their counts are reported). */
const OWN_TABLES = ['trials', 'calls', 'scores', 'judgments', 'artifacts', 'claims', 'reservations'] as const;

/**
 * Store.deleteRun for PostgreSQL, inside the caller's transaction. The run's row is locked first,
 * so two deletes of one run take turns; blobs and items are shared by content, so only those no
 * other run names go.
 */
export async function deleteRunPostgres(c: pg.PoolClient, runId: string, force: boolean): Promise<DeletedRun | undefined> {
  if ((await c.query('SELECT 1 FROM runs WHERE id = $1 FOR UPDATE', [runId])).rowCount === 0) return undefined;
  const live = (await c.query(`SELECT worker_id, pid, host, MAX(expires_at) AS expires_at, COUNT(*)::int AS trials FROM claims
    WHERE run_id = $1 AND expires_at > $2 GROUP BY worker_id, pid, host ORDER BY worker_id COLLATE "C"`, [runId, Date.now()])).rows;
  if (live.length && !force) {
    throw new RunInUseError(runId, live.map(r => ({ workerId: r.worker_id, pid: r.pid, host: r.host, expiresAt: Number(r.expires_at), trials: r.trials })));
  }
  const blobs = await orphanBlobs(c, runId);
  if (blobs.length) await c.query('DELETE FROM blobs WHERE hash = ANY($1::text[])', [blobs]);
  const items = (await c.query(`DELETE FROM items WHERE hash IN (SELECT item_hash FROM run_items WHERE run_id = $1)
    AND hash NOT IN (SELECT item_hash FROM run_items WHERE run_id <> $1)`, [runId])).rowCount ?? 0;
  const counts = {} as Record<typeof OWN_TABLES[number], number>;
  for (const t of OWN_TABLES) counts[t] = (await c.query(`DELETE FROM ${t} WHERE run_id = $1`, [runId])).rowCount ?? 0;
  await c.query('DELETE FROM run_items WHERE run_id = $1', [runId]);
  await c.query('DELETE FROM runs WHERE id = $1', [runId]);
  return { runId, ...counts, items, blobs: blobs.length };
}

/** Blobs the run's rows name that no row of another run names. */
async function orphanBlobs(c: pg.PoolClient, runId: string): Promise<string[]> {
  const named = new Set<string>();
  for (const [table, column] of BLOB_COLUMNS) {
    const rows = (await c.query(`SELECT ${column} AS text FROM ${table} WHERE run_id = $1 AND strpos(${column}, $2) > 0`, [runId, BLOB_MARK])).rows;
    for (const r of rows) for (const hash of blobHashesIn(r.text as string)) named.add(hash);
  }
  if (named.size === 0) return [];
  const elsewhere = BLOB_COLUMNS.map(([table, column]) => `NOT EXISTS (SELECT 1 FROM ${table} WHERE run_id <> $1 AND strpos(${column}, h) > 0)`);
  const rows = (await c.query(`SELECT h FROM unnest($2::text[]) AS h WHERE EXISTS (SELECT 1 FROM blobs WHERE hash = h) AND ${elsewhere.join(' AND ')}`,
    [runId, [...named]])).rows;
  return rows.map(r => r.h as string);
}
