import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, ItemSchema, contentHash, parseJsonlLines, type ConfigIssue, type Item, type VersionedItem } from '../core/index.js';

/** Every `.jsonl` file a path names: the file itself, or those under a folder, sorted for a stable order. */
export function itemFiles(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new ConfigError([{ file: path, message: 'no such item file or folder' }]);
  }
  if (stat.isFile()) return [path];
  const out: string[] = [];
  for (const name of readdirSync(path).sort()) {
    const full = join(path, name);
    if (statSync(full).isDirectory()) out.push(...itemFiles(full));
    else if (name.endsWith('.jsonl')) out.push(full);
  }
  return out;
}

/**
 * Load and validate JSONL item files. Every problem in every file is collected and thrown together
 * as one ConfigError naming file, line and field, so nothing runs on a half-valid suite.
 */
export function loadItems(paths: string[]): VersionedItem[] {
  const issues: ConfigIssue[] = [];
  const items: VersionedItem[] = [];
  const seen = new Map<string, string>();
  const files = paths.flatMap(itemFiles);
  if (files.length === 0) throw new ConfigError([{ file: paths.join(', '), message: 'no .jsonl item files found' }]);
  for (const file of files) {
    const text = readUtf8(file, issues);
    if (text === undefined) continue;
    for (const { value, line } of parseJsonlLines(text, file, issues)) {
      const parsed = ItemSchema.safeParse(value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          issues.push({ file, line, field: issue.path.join('.') || undefined, message: issue.message });
        }
        continue;
      }
      const item: Item = parsed.data;
      const key = `${item.test}\u0000${item.id}`;
      const first = seen.get(key);
      if (first) issues.push({ file, line, field: 'id', message: `duplicate id "${item.id}" in test ${item.test} (first at ${first})` });
      else seen.set(key, `${file}:${line}`);
      items.push({ item, hash: contentHash(item), file, line });
    }
  }
  if (issues.length) throw new ConfigError(issues);
  if (items.length === 0) throw new ConfigError([{ file: files.join(', '), message: 'no items: the file(s) hold no item lines' }]);
  return items;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The file as UTF-8, or an issue naming the first line that is not (never silent U+FFFD). */
function readUtf8(file: string, issues: ConfigIssue[]): string | undefined {
  const bytes = readFileSync(file);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          strictUtf8.decode(bytes.subarray(start, i));
        } catch {
          issues.push({ file, line, message: 'not valid UTF-8 (save the file as UTF-8)' });
          return undefined;
        }
        line++;
        start = i + 1;
      }
    }
    issues.push({ file, message: 'not valid UTF-8 (save the file as UTF-8)' });
    return undefined;
  }
}
