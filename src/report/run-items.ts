import { GROUP_FIELDS, type Item, type Store } from '../core/index.js';
import { eachRunItemPage } from '../store/run-item-pages.js';
import { stringsOf } from './clip.js';
import { column, interner } from '../core/columns.js';

const PAGE = 5000;

/**
 * The items a run plans, as a report keeps them: each by a number (its place in the run's item
 * pages), its hash and the values its tables group by held once per distinct value, and public
 * items whole (their examples may be published). Private items' texts are never held.
 */
export interface ItemTable {
  readonly size: number;
  hash(i: number): string;
  indexOf(hash: string): number | undefined;
  /** The item whole, when it is public. */
  publicItem(i: number): Item | undefined;
  /** The public items, in hash order. */
  publicItems(): IterableIterator<Item>;
  language(i: number): string | undefined;
  /** Group values the item has for the report's breakdowns, in GROUP_FIELDS order. */
  groupValues(i: number): Array<[field: string, value: string]>;
  /** Item numbers in hash order (string order), the order paired comparisons take items in. */
  byHash(): Uint32Array;
}

/** The items a run plans, read a page at a time. */
export async function readItemTable(store: Store, runId: string, pageSize = PAGE): Promise<ItemTable> {
  const hashes: string[] = [];
  const indexOf = new Map<string, number>();
  const whole = new Map<number, Item>();
  const texts = interner();
  const fields = GROUP_FIELDS.map(() => column('u32'));
  await eachRunItemPage(store, runId, pageSize, page => {
    for (const { hash, item } of page) {
      if (indexOf.has(hash)) continue;
      const i = hashes.push(hash) - 1;
      indexOf.set(hash, i);
      if (item.visibility === 'public') whole.set(i, item);
      GROUP_FIELDS.forEach((f, k) => { const v: unknown = item[f]; fields[k]!.push(typeof v === 'string' ? texts.code(v) : 0); });
    }
  });
  const codes = fields.map(c => c.view());
  const languageField = GROUP_FIELDS.indexOf('language');
  let order: Uint32Array | undefined;
  return {
    size: hashes.length,
    hash: i => hashes[i]!,
    indexOf: h => indexOf.get(h),
    publicItem: i => whole.get(i),
    publicItems: () => whole.values(),
    language: i => texts.text(codes[languageField]![i]!),
    groupValues(i) {
      const out: Array<[string, string]> = [];
      GROUP_FIELDS.forEach((f, k) => { const v = texts.text(codes[k]![i]!); if (v) out.push([f, v]); });
      return out;
    },
    byHash() {
      if (order) return order;
      // Pages come in hash order from the store; sorted again only if its collation differs from string order.
      order = Uint32Array.from(hashes.keys());
      for (let i = 1; i < hashes.length; i++) {
        if (hashes[i - 1]! < hashes[i]!) continue;
        order.sort((a, b) => (hashes[a]! < hashes[b]! ? -1 : 1));
        break;
      }
      return order;
    },
  };
}

/**
 * Every text of the run's private items that a failure message must not show (their ids and the
 * strings of their input, accepted answers, references and answer key), in the order of the items'
 * ids: read again only when some trial failed.
 */
export async function privateItemTexts(store: Store, runId: string, pageSize = PAGE): Promise<string[]> {
  const found: Array<{ id: string; hash: string; texts: string[] }> = [];
  await eachRunItemPage(store, runId, pageSize, page => {
    for (const { hash, item: i } of page) {
      if (i.visibility === 'public') continue;
      found.push({ id: i.id, hash, texts: [i.id, ...stringsOf(i.input), ...stringsOf(i.accepted), ...stringsOf(i.references), ...stringsOf(i.answer)] });
    }
  });
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.hash < b.hash ? -1 : 1)).flatMap(f => f.texts);
}
