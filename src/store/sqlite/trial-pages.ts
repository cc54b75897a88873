import type Database from 'better-sqlite3';
import type { TrialPage, TrialPageRequest, VersionedItem } from '../../core/index.js';
import { interner, toTrial } from './rows.js';
import { pageRowsOfRun } from '../page-rows.js';

type Row = Record<string, unknown>;

/** A trial-id range of a page: after `lo` (none: from the start) up to and including `hi` (none: to the end). */
const range = (column: string, lo: boolean, hi: boolean) => `${lo ? ` AND ${column} > @lo` : ''}${hi ? ` AND ${column} <= @hi` : ''}`;

const SQL = {
  trials: (lo: boolean) => `SELECT * FROM trials WHERE run_id = @run${lo ? ' AND id > @lo' : ''} ORDER BY id LIMIT @limit`,
  // Calls and scores are keyed by their trial's plan index (migration 8): the page's trials are
  // found by id range, then each one's rows by its index; rows of trials the store does not hold
  // (index -1) by id range among those. The answer's text only: requests and raw bodies are never read.
  calls: (lo: boolean, hi: boolean, answers: boolean) => `SELECT * FROM (
    SELECT c.seq, c.trial_id, c.step, c.status, ${answers ? "json_extract(c.result, '$.text')" : 'NULL'} AS text, c.error, c.cost_usd FROM trials t
      CROSS JOIN calls c ON c.run_id = t.run_id AND c.trial_idx = t.idx AND c.trial_id = t.id
      WHERE t.run_id = @run${range('t.id', lo, hi)}
    UNION ALL
    SELECT seq, trial_id, step, status, ${answers ? "json_extract(result, '$.text')" : 'NULL'} AS text, error, cost_usd FROM calls
      WHERE run_id = @run AND trial_idx = -1${range('trial_id', lo, hi)}
  ) ORDER BY seq`,
  scores: (lo: boolean, hi: boolean) => `SELECT * FROM (
    SELECT s.* FROM trials t CROSS JOIN scores s ON s.run_id = t.run_id AND s.trial_idx = t.idx AND s.trial_id = t.id
      WHERE t.run_id = @run${range('t.id', lo, hi)}
    UNION ALL
    SELECT * FROM scores WHERE run_id = @run AND trial_idx = -1${range('trial_id', lo, hi)}
  ) ORDER BY trial_id, scorer_name, scorer_version`,
  items: (lo: boolean) => `SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
    WHERE ri.run_id = @run${lo ? ' AND ri.item_hash > @lo' : ''} ORDER BY ri.item_hash LIMIT @limit`,
  // The hashes come as one JSON array: one statement for any number of them.
  itemsOf: `SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
    WHERE ri.run_id = @run AND ri.item_hash IN (SELECT value FROM json_each(@hashes))`,
};

/**
 * The streamed reads of a run in the SQLite file: pages of trials with their calls and scores, and
 * pages of its items, each read by primary key or index range (no page rescans the run).
 * `read` commits the queued writes first; item reads need not, since no queued write touches
 * items or run_items (they are stored at once, by saveItems and saveTrials). A suite run reads each
 * chunk's items while it calls, and a commit forced there cut every group commit at a chunk's edge:
 * each commit writes every index page it touched, and keys by request hash are random.
 */
export function sqliteTrialPages(db: () => Database.Database, read: <T>(fn: () => T) => T) {
  const prepared = new Map<string, { db: Database.Database; st: Database.Statement }>();
  const st = (sql: string) => {
    const d = db();
    let p = prepared.get(sql);
    if (p?.db !== d) prepared.set(sql, (p = { db: d, st: d.prepare(sql) }));
    return p.st;
  };
  const rowsOf = pageRowsOfRun();
  return {
    async readTrialPage(runId: string, page: TrialPageRequest): Promise<TrialPage> {
      return read(() => db().transaction(() => {
        const lo = page.afterId !== undefined;
        const rows = rowsOf(runId);
        const same = interner();
        const trials = (st(SQL.trials(lo)).all({ run: runId, limit: page.limit, ...(lo ? { lo: page.afterId } : {}) }) as Row[]).map(r => toTrial(r, same));
        const hi = trials.length === page.limit ? trials.at(-1)!.id : undefined;
        const bounds = { run: runId, ...(lo ? { lo: page.afterId } : {}), ...(hi !== undefined ? { hi } : {}) };
        const calls = (st(SQL.calls(lo, hi !== undefined, page.answers !== false)).all(bounds) as Row[]).map(rows.call);
        const scores = (st(SQL.scores(lo, hi !== undefined)).all(bounds) as Row[]).map(rows.score);
        return { trials, calls, scores };
      })());
    },
    async listRunItemPage(runId: string, page: { afterHash?: string; limit: number }): Promise<VersionedItem[]> {
      const lo = page.afterHash !== undefined;
      return (st(SQL.items(lo)).all({ run: runId, limit: page.limit, ...(lo ? { lo: page.afterHash } : {}) }) as Row[]).map(rowsOf(runId).item);
    },
    async listRunItemsOf(runId: string, hashes: ReadonlyArray<string>): Promise<VersionedItem[]> {
      if (hashes.length === 0) return [];
      return (st(SQL.itemsOf).all({ run: runId, hashes: JSON.stringify(hashes) }) as Row[]).map(rowsOf(runId).item);
    },
  };
}
