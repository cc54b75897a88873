import type { ConfigIssue } from './errors.js';

/**
 * The JSON values of a JSONL text with their 1-based line numbers. A BOM opening a line is dropped and
 * blank lines are skipped; a line that is not JSON adds an issue naming file and line, so callers
 * can report every bad line of a file at once.
 */
export function parseJsonlLines(text: string, file: string, issues: ConfigIssue[]): Array<{ value: unknown; line: number }> {
  const out: Array<{ value: unknown; line: number }> = [];
  text.split(/\r?\n/).forEach((line, i) => {
    // A BOM may open the file, or any line of files that were concatenated.
    const raw = line.replace(/^\uFEFF/, '');
    if (!raw.trim()) return;
    try {
      out.push({ value: JSON.parse(raw), line: i + 1 });
    } catch (e) {
      issues.push({ file, line: i + 1, message: `not valid JSON (${(e as Error).message})` });
    }
  });
  return out;
}
