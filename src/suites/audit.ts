import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import type { Item } from '../core/item.js';
import { clopperPearsonInterval } from '../stats/inference/clopper-pearson.js';

/** One line of an audit file: a person checked this built item and flagged it as wrong, or not. */
const recordSchema = z.strictObject({
  id: z.string().min(1),
  flagged: z.boolean(),
  /** What is wrong with a flagged item. */
  reason: z.string().optional(),
  /** Who checked it. */
  by: z.string().optional(),
});

export type AuditRecord = z.infer<typeof recordSchema> & { file: string; line: number };

/** A test's audit in the build report: the share of checked items flagged, with its exact interval. */
export interface TestAudit {
  checked: number;
  flagged: number;
  rate: number;
  /** 95% Clopper-Pearson interval: audits are small (tens of items), where a normal interval misleads. */
  low: number;
  high: number;
  method: 'clopper-pearson';
  level: number;
  flaggedIds: string[];
}

/** Read a JSONL audit file; every bad line is reported at once, by file, line and field. */
export function loadAudit(file: string): AuditRecord[] {
  const issues: ConfigIssue[] = [];
  const records: AuditRecord[] = [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([{ file, field: '--audit', message: `cannot read the audit file: ${(error as Error).message}` }], { cause: error });
  }
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      issues.push({ file, line: i + 1, message: 'not valid JSON; each line is {"id": ..., "flagged": true|false}' });
      return;
    }
    const r = recordSchema.safeParse(json);
    if (r.success) records.push({ ...r.data, file, line: i + 1 });
    else for (const issue of r.error.issues) issues.push({ file, line: i + 1, field: issue.path.map(String).join('.') || '(root)', message: issue.message });
  });
  if (issues.length) throw new ConfigError(issues);
  return records;
}

/** The audit of one test's items, or undefined when none of them was checked. */
export function auditOf(items: readonly Item[], records: readonly AuditRecord[]): TestAudit | undefined {
  const ids = new Set(items.map(i => i.id));
  const mine = records.filter(r => ids.has(r.id));
  if (!mine.length) return undefined;
  const flaggedIds = mine.filter(r => r.flagged).map(r => r.id).sort();
  const ci = clopperPearsonInterval(flaggedIds.length, mine.length, 0.95);
  return { checked: mine.length, flagged: flaggedIds.length, rate: ci.estimate, low: ci.low, high: ci.high, method: 'clopper-pearson', level: 0.95, flaggedIds };
}

/** Records naming no built item (a typo, or an item the sources no longer give) are bad input. */
export function checkAuditIds(records: readonly AuditRecord[], built: ReadonlySet<string>): void {
  const seen = new Map<string, number>();
  const issues: ConfigIssue[] = [];
  for (const r of records) {
    if (!built.has(r.id)) issues.push({ file: r.file, line: r.line, field: 'id', message: `no built item has id "${r.id}"; audit the ids in the private item files` });
    if (seen.has(r.id)) issues.push({ file: r.file, line: r.line, field: 'id', message: `"${r.id}" is already audited on line ${seen.get(r.id)}` });
    seen.set(r.id, r.line);
  }
  if (issues.length) throw new ConfigError(issues);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The build report's line on an audit. */
export function auditMarkdown(a: TestAudit): string {
  return `Audit: ${a.flagged} of ${a.checked} checked items flagged (${pct(a.rate)}; ${a.level * 100}% Clopper-Pearson interval ${pct(a.low)} to ${pct(a.high)})` +
    `${a.flaggedIds.length ? `: ${a.flaggedIds.map(id => `\`${id}\``).join(', ')}` : ''}.`;
}
