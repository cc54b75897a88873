import type pg from 'pg';
import type { TrialPage, TrialPageRequest, VersionedItem } from '../../core/index.js';
import { toTrial } from '../sqlite/rows.js';
import { pageRowsOfRun } from '../page-rows.js';

type Row = Record<string, unknown>;
type Query = { name: string; text: string };

const SQL = {
  // Through trials_in_plan: a run's trials in plan order (index, then id), judges included.
  trials: (lo: boolean): Query => ({
    name: `trial-page-plan${lo ? '-lo' : ''}`,
    text: `SELECT * FROM trials WHERE run_id = $1${lo ? ' AND (idx, id) > ($2, $3)' : ''} ORDER BY idx, id LIMIT $${lo ? 4 : 2}`,
  }),
  // The calls of a page's trials ($2, their ids), and on the first page those of trials the store
  // does not hold. The answer's text only, if asked: requests and raw bodies are never sent.
  calls: (first: boolean, answers: boolean): Query => {
    const columns = `seq, trial_id, step, status, ${answers ? "result::json->>'text'" : 'NULL'} AS text, error, cost_usd`;
    return {
      name: `trial-page-calls${first ? '-first' : ''}${answers ? '' : '-outline'}`,
      text: `SELECT ${columns} FROM calls WHERE run_id = $1 AND trial_id = ANY($2::text[])${first ? ` UNION ALL
        SELECT ${columns} FROM calls c WHERE c.run_id = $1 AND NOT EXISTS (SELECT 1 FROM trials t WHERE t.run_id = $1 AND t.id = c.trial_id)` : ''}
        ORDER BY seq`,
    };
  },
  scores: (first: boolean): Query => ({
    name: `trial-page-scores${first ? '-first' : ''}`,
    text: `SELECT * FROM scores WHERE run_id = $1 AND trial_id = ANY($2::text[])${first ? ` UNION ALL
      SELECT * FROM scores s WHERE s.run_id = $1 AND NOT EXISTS (SELECT 1 FROM trials t WHERE t.run_id = $1 AND t.id = s.trial_id)` : ''}`,
  }),
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
      const first = page.after === undefined;
      const rows = rowsOf(runId);
      return tx(async c => {
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const from = first ? [] : [page.after!.index, page.after!.id];
        const trials = (await on(c, SQL.trials(!first), [runId, ...from, page.limit])).map(r => toTrial(r));
        const ids = trials.map(t => t.id);
        const calls = (await on(c, SQL.calls(first, page.answers !== false), [runId, ids])).map(rows.call);
        // In the page's order: rows of trials the store does not hold first (by id), then by trial.
        const place = new Map(ids.map((id, i) => [id, i]));
        const key = (r: Row) => place.get(r.trial_id as string) ?? -1;
        const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        const scores = (await on(c, SQL.scores(first), [runId, ids]))
          .sort((a, b) => key(a) - key(b) || byName(a.trial_id as string, b.trial_id as string)
            || byName(a.scorer_name as string, b.scorer_name as string) || byName(a.scorer_version as string, b.scorer_version as string))
          .map(rows.score);
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
