import type { GroupField, Item, Store } from '../core/index.js';
import { stringsOf } from './clip.js';

const PAGE = 5000;

/** What a report keeps of a private item: what its tables group by. Its text is never shown, so it is not held. */
export interface PrivateItemOutline extends Pick<Item, 'id' | 'test' | GroupField> {
  visibility: 'private';
}

/** An item as a report holds it: a public one whole (its examples may be published), a private one outlined. */
export type ReportItem = Item | PrivateItemOutline;

/** An item of the run by its version hash (the one copy of the hash the report keeps). */
export interface ItemEntry {
  hash: string;
  item: ReportItem;
}

/** The item whole, when the report holds it so (public items). */
export const wholeItem = (item: ReportItem): Item | undefined => ('input' in item ? item : undefined);

/** The items a run plans, read a page at a time; private ones outlined, their repeated values held once. */
export async function itemEntries(store: Store, runId: string, pageSize = PAGE): Promise<Map<string, ItemEntry>> {
  const out = new Map<string, ItemEntry>();
  const seen = new Map<string, string>();
  const same = <T extends string | undefined>(s: T): T => {
    if (s === undefined) return s;
    const kept = seen.get(s);
    if (kept !== undefined) return kept as T;
    if (seen.size < 10_000) seen.set(s, s);
    return s;
  };
  await eachItemPage(store, runId, pageSize, page => {
    for (const { hash, item } of page) {
      const kept: ReportItem = item.visibility === 'public' ? item : {
        id: item.id, test: same(item.test), visibility: 'private', language: same(item.language), evidence: same(item.evidence),
        ...(item.topic !== undefined ? { topic: same(item.topic) } : {}), ...(item.level !== undefined ? { level: same(item.level) } : {}),
        ...(item.l1 !== undefined ? { l1: same(item.l1) } : {}),
      };
      out.set(hash, { hash, item: kept });
    }
  });
  return out;
}

/**
 * Every text of the run's private items that a failure message must not show (their ids and the
 * strings of their input, accepted answers, references and answer key), in the order of the items'
 * ids: read again only when some trial failed.
 */
export async function privateItemTexts(store: Store, runId: string, pageSize = PAGE): Promise<string[]> {
  const found: Array<{ id: string; hash: string; texts: string[] }> = [];
  await eachItemPage(store, runId, pageSize, page => {
    for (const { hash, item: i } of page) {
      if (i.visibility === 'public') continue;
      found.push({ id: i.id, hash, texts: [i.id, ...stringsOf(i.input), ...stringsOf(i.accepted), ...stringsOf(i.references), ...stringsOf(i.answer)] });
    }
  });
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.hash < b.hash ? -1 : 1)).flatMap(f => f.texts);
}

async function eachItemPage(store: Store, runId: string, limit: number, use: (page: Array<{ hash: string; item: Item }>) => void): Promise<void> {
  for (let afterHash: string | undefined; ;) {
    const page = await store.listRunItemPage(runId, { limit, ...(afterHash !== undefined ? { afterHash } : {}) });
    use(page);
    if (page.length < limit) return;
    afterHash = page.at(-1)!.hash;
  }
}
