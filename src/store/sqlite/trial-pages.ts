import type Database from 'better-sqlite3';
import type { TrialPage, TrialPageRequest, VersionedItem } from '../../core/index.js';
import { interner, toTrial } from './rows.js';
import { pageRowsOfRun } from '../page-rows.js';

type Row = Record<string, unknown>;

/**
 * A page's range of plan positions (index, then id): after `lo` (none: from the start, rows of
 * trials the store does not hold included, whose index is -1) up to and including `hi` (none: to
 * the end).
 */
const range = (index: string, id: string, lo: boolean, hi: boolean) =>
  `${lo ? ` AND (${index}, ${id}) > (@lo, @loId)` : ''}${hi ? ` AND (${index}, ${id}) <= (@hi, @hiId)` : ''}`;

const SQL = {
  // Through trials_in_plan (migration 9), calls_by_trial and the scores' key (migration 8): each a
  // range of one index, read in the order the rows were written. The answer's text only, if asked:
  // requests and raw bodies are never read.
  trials: (lo: boolean) => `SELECT * FROM trials WHERE run_id = @run${range('idx', 'id', lo, false)} ORDER BY idx, id LIMIT @limit`,
  calls: (lo: boolean, hi: boolean, answers: boolean) => `SELECT seq, trial_id, step, status, ${answers ? "json_extract(result, '$.text')" : 'NULL'} AS text, error, cost_usd
    FROM calls WHERE run_id = @run${range('trial_idx', 'trial_id', lo, hi)} ORDER BY seq`,
  scores: (lo: boolean, hi: boolean) => `SELECT * FROM scores WHERE run_id = @run${range('trial_idx', 'trial_id', lo, hi)}
    ORDER BY trial_idx, trial_id, scorer_name, scorer_version`,
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
export function sqliteTrialPages(db: () => Database.Database, read: <T>(fn: () => T) => Promise<T>) {
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
        const lo = page.after !== undefined;
        const rows = rowsOf(runId);
        const same = interner();
        const from = lo ? { lo: page.after!.index, loId: page.after!.id } : {};
        const trials = (st(SQL.trials(lo)).all({ run: runId, limit: page.limit, ...from }) as Row[]).map(r => toTrial(r, same));
        const last = trials.length === page.limit ? trials.at(-1)! : undefined;
        const bounds = { run: runId, ...from, ...(last ? { hi: last.index, hiId: last.id } : {}) };
        const calls = (st(SQL.calls(lo, last !== undefined, page.answers !== false)).all(bounds) as Row[]).map(rows.call);
        const scores = (st(SQL.scores(lo, last !== undefined)).all(bounds) as Row[]).map(rows.score);
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
