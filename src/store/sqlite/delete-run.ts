import type Database from 'better-sqlite3';
import { RunInUseError, type DeletedRun } from '../../core/index.js';
import { blobHashesIn, BLOB_MARK } from '../blob-refs.js';

type Row = Record<string, unknown>;

/** Columns that may name a blob by hash (JSON text), per table. */
const BLOB_COLUMNS: ReadonlyArray<[table: string, column: string]> = [
  ['artifacts', 'value'], ['calls', 'request'], ['calls', 'result'], ['judgments', 'body'], ['scores', 'details'],
];

/** Tables whose rows are the run's own, deleted by run id (their counts are reported). */
const OWN_TABLES = ['trials', 'calls', 'scores', 'judgments', 'artifacts', 'claims', 'reservations'] as const;

/**
 * Store.deleteRun for SQLite: one IMMEDIATE transaction (no writer can come between the checks
 * and the deletes). Blobs and items are shared by content, so only those no other run names go.
 */
export function deleteRunSqlite(db: Database.Database, runId: string, force: boolean): DeletedRun | undefined {
  return db.transaction((): DeletedRun | undefined => {
    if (!db.prepare('SELECT 1 FROM runs WHERE id = ?').get(runId)) return undefined;
    const live = db.prepare(`SELECT worker_id, pid, host, MAX(expires_at) AS expires_at, COUNT(*) AS trials FROM claims
      WHERE run_id = ? AND expires_at > ? GROUP BY worker_id, pid, host ORDER BY worker_id`).all(runId, Date.now()) as Row[];
    if (live.length && !force) {
      throw new RunInUseError(runId, live.map(r => ({
        workerId: r.worker_id as string, pid: r.pid as number, host: r.host as string, expiresAt: r.expires_at as number, trials: r.trials as number,
      })));
    }
    const blobs = orphanBlobs(db, runId);
    const items = db.prepare(`DELETE FROM items WHERE hash IN (SELECT item_hash FROM run_items WHERE run_id = ?)
      AND hash NOT IN (SELECT item_hash FROM run_items WHERE run_id <> ?)`).run(runId, runId).changes;
    const removeBlob = db.prepare('DELETE FROM blobs WHERE hash = ?');
    for (const hash of blobs) removeBlob.run(hash);
    const counts = Object.fromEntries(OWN_TABLES.map(t => [t, db.prepare(`DELETE FROM ${t} WHERE run_id = ?`).run(runId).changes])) as Record<typeof OWN_TABLES[number], number>;
    db.prepare('DELETE FROM run_items WHERE run_id = ?').run(runId);
    db.prepare('DELETE FROM runs WHERE id = ?').run(runId);
    return { runId, ...counts, items, blobs: blobs.length };
  }).immediate();
}

/** Blobs the run's rows name that no row of another run names. */
function orphanBlobs(db: Database.Database, runId: string): string[] {
  const named = new Set<string>();
  for (const [table, column] of BLOB_COLUMNS) {
    const rows = db.prepare(`SELECT ${column} AS text FROM ${table} WHERE run_id = ? AND instr(${column}, ?) > 0`).iterate(runId, BLOB_MARK) as Iterable<Row>;
    for (const r of rows) for (const hash of blobHashesIn(r.text as string)) named.add(hash);
  }
  const stored = db.prepare('SELECT 1 FROM blobs WHERE hash = ?');
  const elsewhere = BLOB_COLUMNS.map(([table, column]) => db.prepare(`SELECT 1 FROM ${table} WHERE run_id <> ? AND instr(${column}, ?) > 0 LIMIT 1`));
  return [...named].filter(hash => stored.get(hash) && !elsewhere.some(q => q.get(runId, hash)));
}
