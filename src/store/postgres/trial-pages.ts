import type pg from 'pg';
import type { TrialPage, TrialPageRequest, VersionedItem } from '../../core/index.js';
import { toTrial } from '../sqlite/rows.js';
import { pageRowsOfRun } from '../page-rows.js';

type Row = Record<string, unknown>;
type Query = { name: string; text: string };

/**
 * A query over a trial-id range ($1 the run, then the bounds that are set): after `lo` (none: from
 * the start) up to and including `hi` (none: to the end). Pages compare ids in the column's own
 * collation, which its index is built in, so no page rescans the run.
 */
function ranged(name: string, head: string, tail: string, column: string, lo: boolean, hi: boolean): Query {
  const bounds = [lo ? `${column} > $2` : '', hi ? `${column} <= $${lo ? 3 : 2}` : ''].filter(Boolean);
  return { name: `${name}-${lo ? 'lo' : ''}${hi ? 'hi' : ''}`, text: `${head} WHERE run_id = $1${bounds.map(b => ` AND ${b}`).join('')} ${tail}` };
}

const SQL = {
  trials: (lo: boolean): Query => ({
    name: `trial-page${lo ? '-lo' : ''}`,
    text: `SELECT * FROM trials WHERE run_id = $1${lo ? ' AND id > $2' : ''} ORDER BY id LIMIT $${lo ? 3 : 2}`,
  }),
  // The answer's text only, if asked: requests and raw bodies are never sent.
  calls: (lo: boolean, hi: boolean, answers: boolean) => ranged(
    `trial-page-calls${answers ? '' : '-outline'}`,
    `SELECT seq, trial_id, step, status, ${answers ? "result::json->>'text'" : 'NULL'} AS text, error, cost_usd FROM calls`, 'ORDER BY seq', 'trial_id', lo, hi,
  ),
  scores: (lo: boolean, hi: boolean) => ranged('trial-page-scores', 'SELECT * FROM scores', 'ORDER BY trial_id COLLATE "C", scorer_name COLLATE "C"', 'trial_id', lo, hi),
  items: (lo: boolean): Query => ({
    name: `run-item-page${lo ? '-lo' : ''}`,
    text: `SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
      WHERE ri.run_id = $1${lo ? ' AND ri.item_hash > $2' : ''} ORDER BY ri.item_hash LIMIT $${lo ? 3 : 2}`,
  }),
  itemsOf: {
    name: 'run-items-of',
    text: `SELECT i.hash, i.body, ri.file, ri.line FROM run_items ri JOIN items i ON i.hash = ri.item_hash
      WHERE ri.run_id = $1 AND ri.item_hash = ANY($2::text[])`,
  },
};

/**
 * The streamed reads of a run in PostgreSQL: pages of trials with their calls and scores (read in
 * one repeatable-read transaction, so the three agree), and pages of its items.
 */
export function postgresTrialPages(
  tx: <T>(fn: (c: pg.PoolClient) => Promise<T>) => Promise<T>,
  run: (query: Query, values: unknown[]) => Promise<Row[]>,
) {
  const on = (c: pg.PoolClient, query: Query, values: unknown[]) => c.query<Row>({ ...query, values }).then(r => r.rows);
  const rowsOf = pageRowsOfRun();
  return {
    async readTrialPage(runId: string, page: TrialPageRequest): Promise<TrialPage> {
      const lo = page.afterId !== undefined;
      const rows = rowsOf(runId);
      return tx(async c => {
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const trials = (await on(c, SQL.trials(lo), [runId, ...(lo ? [page.afterId] : []), page.limit])).map(r => toTrial(r));
        const hi = trials.length === page.limit ? trials.at(-1)!.id : undefined;
        const bounds = [runId, ...(lo ? [page.afterId] : []), ...(hi !== undefined ? [hi] : [])];
        const calls = (await on(c, SQL.calls(lo, hi !== undefined, page.answers !== false), bounds)).map(rows.call);
        const scores = (await on(c, SQL.scores(lo, hi !== undefined), bounds)).map(rows.score);
        return { trials, calls, scores };
      });
    },
    async listRunItemPage(runId: string, page: { afterHash?: string; limit: number }): Promise<VersionedItem[]> {
      const lo = page.afterHash !== undefined;
      return (await run(SQL.items(lo), [runId, ...(lo ? [page.afterHash] : []), page.limit])).map(rowsOf(runId).item);
    },
    async listRunItemsOf(runId: string, hashes: ReadonlyArray<string>): Promise<VersionedItem[]> {
      if (hashes.length === 0) return [];
      return (await run(SQL.itemsOf, [runId, hashes])).map(rowsOf(runId).item);
    },
  };
}
