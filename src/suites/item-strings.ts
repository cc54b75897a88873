import type { Item } from '../core/index.js';

/**
 * One copy of a string that repeats from one line to the next (test, language, licence, labels of
 * the input) instead of one per line as JSON.parse makes them, for what outlives the line: a plan
 * entry keeps its item's test, `loadItems` keeps every item. Each field is compared with its value
 * on the previous line only: no hashing of every string.
 */
export function sharedStrings(): (item: Item) => Item {
  const last = [new Map<string, string>(), new Map<string, string>(), new Map<string, string>()];
  const share = (fields: Record<string, unknown>, space: number) => {
    const seen = last[space]!;
    for (const key in fields) {
      const s = fields[key];
      if (typeof s !== 'string') continue;
      const before = seen.get(key);
      if (before === s) fields[key] = before;
      else seen.set(key, s);
    }
  };
  return item => {
    share(item as unknown as Record<string, unknown>, 0);
    share(item.input as Record<string, unknown>, 1);
    if (typeof item.source === 'object' && item.source !== null) share(item.source as unknown as Record<string, unknown>, 2);
    return item;
  };
}
