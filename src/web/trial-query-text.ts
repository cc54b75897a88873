import type { RunIndex, TrialRow } from './run-index.js';
import { queryTrials, type TrialQuery } from './trial-query.js';

/** Searches remembered per index (a user paging through one search reads the store once). */
const REMEMBERED = 8;
const remembered = new WeakMap<RunIndex, { version: number; byQ: Map<string, Map<string, boolean>> }>();

/**
 * A page of the query with its search over whole texts. The index keeps the first INDEXED_TEXT
 * characters of each text: a row whose texts are all kept is searched there; a row with a longer
 * text is searched in the whole text, read from the store a batch of trials at a time (only rows
 * that pass the other filters, and whose whole kept text did not match already), so the run is
 * never loaded at once. A match in a cut text's kept part is not taken as is: an anchor or a
 * lookahead may read it differently in the whole text.
 */
export async function queryTrialsFully(index: RunIndex, rows: ReadonlyArray<TrialRow>, query: TrialQuery): Promise<{ total: number; rows: TrialRow[] }> {
  if (!query.q) return queryTrials(rows, query);
  const pattern = new RegExp(query.q, 'iu');
  const keptMatch = (r: TrialRow) => (!r.inputCut && pattern.test(r.input)) || (!r.outputCut && pattern.test(r.output));
  const cut = (r: TrialRow) => r.inputCut || r.outputCut;
  const known = knownMatches(index, query.q);
  const unread = queryTrials(rows, { ...query, q: undefined, offset: 0, limit: Number.MAX_SAFE_INTEGER }).rows
    .filter(r => cut(r) && !known.has(r.id) && !keptMatch(r));
  for await (const t of index.fullTexts(unread.map(r => r.id))) known.set(t.id, pattern.test(t.input) || pattern.test(t.output));
  return queryTrials(rows, query, r => (cut(r) ? keptMatch(r) || known.get(r.id) === true : pattern.test(r.input) || pattern.test(r.output)));
}

function knownMatches(index: RunIndex, q: string): Map<string, boolean> {
  let cache = remembered.get(index);
  if (!cache || cache.version !== index.version) remembered.set(index, cache = { version: index.version, byQ: new Map() });
  let known = cache.byQ.get(q);
  if (!known) {
    if (cache.byQ.size >= REMEMBERED) cache.byQ.delete(cache.byQ.keys().next().value!);
    cache.byQ.set(q, known = new Map());
  }
  return known;
}
