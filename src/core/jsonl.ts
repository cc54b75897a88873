import type { ConfigIssue } from './errors.js';

/**
 * Deepest nesting of arrays and objects a line may hold. Real items and tasks nest a few levels;
 * thousands of levels would overflow the stack of every recursive reader after the parser
 * (hashing, validation, reports).
 */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests arrays or objects more than `limit` levels deep (checked without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * One JSONL line's value, or undefined after adding an issue naming file and line: not JSON, or
 * nested deeper than MAX_JSON_DEPTH. A BOM opening the line is dropped; a blank line gives undefined
 * and no issue.
 */
export function parseJsonLine(text: string, file: string, line: number, issues: ConfigIssue[]): { value: unknown } | undefined {
  // A BOM may open the file, or any line of files that were concatenated.
  const raw = text.replace(/^\uFEFF/, '');
  if (!raw.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    issues.push({ file, line, message: `not valid JSON (${(e as Error).message.slice(0, 200)})` });
    return undefined;
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    issues.push({ file, line, message: `nested more than ${MAX_JSON_DEPTH} levels deep; flatten the value` });
    return undefined;
  }
  return { value };
}

/**
 * The JSON values of a JSONL text with their 1-based line numbers (see parseJsonLine), so callers
 * can report every bad line of a file at once.
 */
export function parseJsonlLines(text: string, file: string, issues: ConfigIssue[]): Array<{ value: unknown; line: number }> {
  const out: Array<{ value: unknown; line: number }> = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const parsed = parseJsonLine(line, file, i + 1, issues);
    if (parsed) out.push({ value: parsed.value, line: i + 1 });
  });
  return out;
}
