import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sharedStrings } from './item-strings.js';
import {
  ConfigError, FILE_LIMITS, ItemSchema, contentHash, parseJsonLine, quoteValue, userLines, type ConfigIssue, type Item, type VersionedItem,
} from '../core/index.js';

/**
 * Every `.jsonl` file a path names: the file itself, or those under a folder, sorted for a stable
 * order. A folder reached twice through symbolic links is read once.
 */
export function itemFiles(path: string): string[] {
  return collectItemFiles(path, new Set());
}

function collectItemFiles(path: string, seen: Set<string>): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new ConfigError([{ file: path, message: 'no such item file or folder' }]);
  }
  if (!stat.isDirectory()) return [path];
  const real = realpathSync(path);
  if (seen.has(real)) return [];
  seen.add(real);
  const out: string[] = [];
  for (const name of readdirSync(path).sort()) {
    const full = join(path, name);
    let isDir = false;
    try {
      isDir = statSync(full).isDirectory();
    } catch {
      // A dangling link is not an item file; a .jsonl one is reported when it is read.
    }
    if (isDir) out.push(...collectItemFiles(full, seen));
    else if (name.endsWith('.jsonl')) out.push(full);
  }
  return out;
}

/**
 * Load and validate JSONL item files, read line by line. Every problem in every file is collected
 * and thrown together as one ConfigError naming file, line and field, so nothing runs on a
 * half-valid suite.
 */
export function loadItems(paths: string[], o: { maxFileBytes?: number } = {}): VersionedItem[] {
  const items: VersionedItem[] = [];
  for (const { item } of itemsIn(paths, o)) items.push(item);
  return items;
}

/**
 * Validate JSONL item files line by line and yield each valid item as it is read, so a caller
 * that keeps only part of each (a plan of 200,000 items) never holds every item, and may let the
 * event loop turn between them. The caller may add problems of its own to `issues` (once there is
 * one, nothing will run: it need keep nothing more); every problem of every file is thrown
 * together once the last line is read.
 */
export function* itemsIn(paths: string[], o: { maxFileBytes?: number } = {}): Generator<{ item: VersionedItem; issues: ConfigIssue[] }, void, undefined> {
  const issues: ConfigIssue[] = [];
  let count = 0;
  // Where each item was first seen (file number x 2^32 + line), by test and id: keyed by the id
  // itself, not a joined key string (200,000 of those are ~6 MB the plan does not need).
  const seen = new Map<string, Map<string, number>>();
  const same = sharedStrings();
  const files = paths.flatMap(itemFiles);
  if (files.length === 0) throw new ConfigError([{ file: paths.join(', '), message: 'no .jsonl item files found' }]);
  for (const [fileNo, file] of files.entries()) {
    for (const l of userLines(file, 'item file', o.maxFileBytes ?? FILE_LIMITS.items)) {
      if ('problem' in l) {
        issues.push({ file, message: l.problem });
        continue;
      }
      const { line } = l;
      if (!('text' in l)) {
        issues.push({ file, line, message: 'not valid UTF-8 (save the file as UTF-8)' });
        continue;
      }
      const json = parseJsonLine(l.text, file, line, issues);
      if (!json) continue;
      const parsed = ItemSchema.safeParse(json.value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          issues.push({ file, line, field: issue.path.join('.') || undefined, message: issue.message });
        }
        continue;
      }
      const item: Item = same(parsed.data);
      const ofTest = seen.get(item.test) ?? seen.set(item.test, new Map()).get(item.test)!;
      const first = ofTest.get(item.id);
      if (first !== undefined) {
        const at = `${files[Math.floor(first / 2 ** 32)]}:${first % 2 ** 32}`;
        issues.push({ file, line, field: 'id', message: `duplicate id ${quoteValue(item.id)} in test ${quoteValue(item.test)} (first at ${at})` });
        continue;
      }
      ofTest.set(item.id, fileNo * 2 ** 32 + line);
      count++;
      yield { item: { item, hash: contentHash(item), file, line }, issues };
    }
  }
  if (issues.length) throw new ConfigError(issues);
  if (count === 0) throw new ConfigError([{ file: files.join(', '), message: 'no items: the file(s) hold no item lines' }]);
}
