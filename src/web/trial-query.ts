import { ConfigError } from '../core/index.js';
import type { TrialRow } from './run-index.js';

/** The filters of a run's trial table, as the page keeps them in its URL. */
export interface TrialQuery {
  /** failures: some score below 1; passes: scored 1; errors: the trial failed; differences: models disagree on the item. */
  show: 'all' | 'failures' | 'passes' | 'errors' | 'differences';
  model?: string;
  /** A regular expression over the trial's input and output (case-insensitive). */
  q?: string;
  offset: number;
  limit: number;
}

const SHOWS = ['all', 'failures', 'passes', 'errors', 'differences'] as const;
export const MAX_PAGE = 200;

/** Read the query from URL parameters; a bad one is a ConfigError naming the parameter. */
export function parseTrialQuery(params: URLSearchParams): TrialQuery {
  const show = params.get('show') ?? 'all';
  if (!(SHOWS as readonly string[]).includes(show)) {
    throw new ConfigError([{ field: 'show', message: `expected one of ${SHOWS.join(', ')}, got "${show}"` }]);
  }
  const q = params.get('q') ?? '';
  if (q) {
    try { new RegExp(q, 'iu'); } catch (e) {
      throw new ConfigError([{ field: 'q', message: `not a regular expression: ${(e as Error).message}` }]);
    }
  }
  const offset = Math.max(0, Number.parseInt(params.get('offset') ?? '0', 10) || 0);
  const limit = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(params.get('limit') ?? '50', 10) || 50));
  const model = params.get('model') ?? '';
  return { show: show as TrialQuery['show'], ...(model ? { model } : {}), ...(q ? { q } : {}), offset, limit };
}

/**
 * One page of the rows that pass the query, and how many pass in all. `textMatch` decides the
 * search (default: the pattern over the row's kept texts; see trial-query-text for whole texts).
 */
export function queryTrials(rows: ReadonlyArray<TrialRow>, query: TrialQuery, textMatch?: (r: TrialRow) => boolean): { total: number; rows: TrialRow[] } {
  const pattern = query.q ? new RegExp(query.q, 'iu') : undefined;
  const matches = textMatch ?? ((r: TrialRow) => !pattern || pattern.test(r.input) || pattern.test(r.output));
  const differs = query.show === 'differences' ? disagreeingItems(rows) : undefined;
  const keep = (r: TrialRow): boolean => {
    if (query.model && r.model !== query.model) return false;
    if (query.show === 'failures' && !(r.score !== null && r.score < 1)) return false;
    if (query.show === 'passes' && r.score !== 1) return false;
    if (query.show === 'errors' && r.status !== 'failed') return false;
    if (differs && !differs.has(itemKey(r))) return false;
    return matches(r);
  };
  const out: TrialRow[] = [];
  let total = 0;
  for (const r of rows) {
    if (!keep(r)) continue;
    if (total >= query.offset && out.length < query.limit) out.push(r);
    total += 1;
  }
  return { total, rows: out };
}

const itemKey = (r: TrialRow) => `${r.test}\u0000${r.itemId}\u0000${r.repeat}`;

/** Items (per repeat) that two models scored differently, or that one failed and another did not. */
function disagreeingItems(rows: ReadonlyArray<TrialRow>): Set<string> {
  const seen = new Map<string, string>();
  const out = new Set<string>();
  for (const r of rows) {
    const key = itemKey(r);
    const outcome = r.status === 'failed' ? 'failed' : String(r.score);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, outcome);
    else if (first !== outcome) out.add(key);
  }
  return out;
}
