import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, parseJsonlLines, type ConfigIssue } from '../../core/index.js';

/**
 * One BLiMP minimal pair, as in `blimp/data/<UID>.jsonl` (data/sources/blimp/README.md).
 * Fields outside the common set depend on the paradigm, so the schema checks them only when the
 * paradigm's method flag says they must be there; unknown fields are kept.
 */
export const BlimpRecordSchema = z
  .looseObject({
    sentence_good: z.string().min(1),
    sentence_bad: z.string().min(1),
    field: z.string(),
    linguistics_term: z.string().min(1),
    UID: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a UID is letters, digits, "_", "." or "-" (it names the file)'),
    simple_LM_method: z.boolean(),
    one_prefix_method: z.boolean(),
    two_prefix_method: z.boolean(),
    lexically_identical: z.boolean(),
    // Upstream stores a string ("0".."999") though its README says number; accept both, keep a string.
    pairID: z
      .union([z.string().regex(/^[^\s:]+$/, 'a pairID has no spaces or ":" (it is part of item ids)'), z.number().int().nonnegative()])
      .transform(String),
    one_prefix_prefix: z.string().optional(),
    one_prefix_word_good: z.string().optional(),
    one_prefix_word_bad: z.string().optional(),
    two_prefix_prefix_good: z.string().optional(),
    two_prefix_prefix_bad: z.string().optional(),
    two_prefix_word: z.string().optional(),
    dependency_length: z.number().int().optional(),
  })
  .superRefine((r, ctx) => {
    const need = (flag: boolean, keys: readonly string[], method: string) => {
      if (!flag) return;
      for (const key of keys) {
        if (typeof (r as Record<string, unknown>)[key] !== 'string') {
          ctx.addIssue({ code: 'custom', path: [key], message: `required when ${method} is true` });
        }
      }
    };
    need(r.one_prefix_method, ['one_prefix_prefix', 'one_prefix_word_good', 'one_prefix_word_bad'], 'one_prefix_method');
    need(r.two_prefix_method, ['two_prefix_prefix_good', 'two_prefix_prefix_bad', 'two_prefix_word'], 'two_prefix_method');
  });

export type BlimpRecord = z.output<typeof BlimpRecordSchema>;

/** One paradigm: one JSONL file of minimal pairs sharing a UID. */
export interface BlimpParadigm {
  uid: string;
  linguisticsTerm: string;
  /** Path inside the BLiMP folder, as items cite it: `data/<name>.jsonl`. */
  file: string;
  records: BlimpRecord[];
}

/**
 * Parse one BLiMP JSONL text. Every bad line is reported (file, line, field) in one ConfigError,
 * as are a pairID used twice and a UID that changes within the file.
 */
export function parseBlimpJsonl(text: string, file: string): BlimpRecord[] {
  const issues: ConfigIssue[] = [];
  const records: BlimpRecord[] = [];
  const seen = new Map<string, number>();
  for (const { value, line } of parseJsonlLines(text, file, issues)) {
    const parsed = BlimpRecordSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        issues.push({ file, line, field: issue.path.join('.') || undefined, message: issue.message });
      }
      continue;
    }
    const record = parsed.data;
    const first = records[0];
    if (first && record.UID !== first.UID) {
      issues.push({ file, line, field: 'UID', message: `UID "${record.UID}" differs from "${first.UID}" earlier in the file; one file holds one paradigm` });
    }
    const earlier = seen.get(record.pairID);
    if (earlier !== undefined) {
      issues.push({ file, line, field: 'pairID', message: `duplicate pairID "${record.pairID}" (first at line ${earlier})` });
    } else seen.set(record.pairID, line);
    records.push(record);
  }
  if (issues.length) throw new ConfigError(issues);
  return records;
}

/** The folder BLiMP files are listed from: `<sourcesDir>/blimp/data`. */
export function blimpDataDir(sourcesDir: string): string {
  return join(sourcesDir, 'blimp', 'data');
}

/**
 * The `*.jsonl` file names in `<sourcesDir>/blimp/data`, listed at run time and sorted by code
 * point (not locale), so any set of paradigms in BLiMP's format works and the order is stable.
 * Empty when the folder is missing: builders turn that into a shortfall, not a crash.
 */
export function listBlimpFiles(sourcesDir: string): string[] {
  const dir = blimpDataDir(sourcesDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter(entry => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map(entry => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Read every paradigm under `<sourcesDir>/blimp/data`; throws a ConfigError naming file and line on bad data. */
export function readBlimp(sourcesDir: string): BlimpParadigm[] {
  const dir = blimpDataDir(sourcesDir);
  const issues: ConfigIssue[] = [];
  const paradigms: BlimpParadigm[] = [];
  const byUid = new Map<string, string>();
  for (const name of listBlimpFiles(sourcesDir)) {
    const path = join(dir, name);
    let records: BlimpRecord[];
    try {
      records = parseBlimpJsonl(readFileSync(path, 'utf8'), path);
    } catch (e) {
      if (e instanceof ConfigError) {
        issues.push(...e.issues);
        continue;
      }
      throw e;
    }
    const first = records[0];
    if (!first) {
      issues.push({ file: path, message: 'no records' });
      continue;
    }
    const other = byUid.get(first.UID);
    if (other) issues.push({ file: path, field: 'UID', message: `UID "${first.UID}" is also used by ${other}` });
    byUid.set(first.UID, path);
    paradigms.push({ uid: first.UID, linguisticsTerm: first.linguistics_term, file: `data/${name}`, records });
  }
  if (issues.length) throw new ConfigError(issues);
  return paradigms;
}
