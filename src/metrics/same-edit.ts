import { editDiff, makeChange, type EditChange, type EditDiff } from './edit-diff.js';
import { normalizeWith, resolveNormalizeOptions, type NormalizeOptions } from './normalize.js';

/** Options of `sameEdit`. */
export interface SameEditOptions {
  /**
   * How tokens are compared. Default: `normalizeAnswer`'s defaults (NFC, lowercase, apostrophe
   * variants), so a change of case only is not an edit; pass `{ caseFold: false }` to mark
   * capitalisation fixes.
   */
  normalize?: NormalizeOptions;
}

/**
 * The verdict of `sameEdit`, as a code for tables and a reason for people:
 * `match` the expected edits and nothing else; `unchanged` the actual text changes nothing;
 * `wrong-edit` the right spans were changed, to something else; `extra-edits` the expected edits
 * plus others; `missing-edits` only some of the expected edits; `different-edits` anything else.
 */
export type SameEditCode = 'match' | 'unchanged' | 'wrong-edit' | 'extra-edits' | 'missing-edits' | 'different-edits';

/** Result of `sameEdit`. */
export interface SameEditResult {
  ok: boolean;
  code: SameEditCode;
  /** One sentence saying what differs, quoting the edits. */
  reason: string;
  /** Changes `actual` makes to `source` that `expected` does not (spans in source/actual). */
  extraChanges: EditChange[];
  /** Changes `expected` makes to `source` that `actual` does not (spans in source/expected). */
  missingChanges: EditChange[];
}

/**
 * Whether `actual` makes exactly the edit(s) that `expected` makes to `source`, and nothing else:
 * the tutor test's "fixed the learner's error and changed nothing else". Texts are compared as
 * token sequences (see `tokenize`), each token normalised (see SameEditOptions), so whitespace
 * never matters. `ok` is true exactly when actual and expected have the same tokens; the diffs of
 * each against the source then say which edits are extra or missing. An edit counts as the same
 * when it covers the same source tokens with the same new tokens; a hunk replacing k tokens with k
 * others counts as k one-token edits. Edge cases: all three empty is a
 * match; `expected` equal to `source` means no edit is wanted, so any change in `actual` is extra.
 */
export function sameEdit(source: string, expected: string, actual: string, options: SameEditOptions = {}): SameEditResult {
  const norm = resolveNormalizeOptions(options.normalize ?? {});
  const diffOptions = { normalize: norm };
  const want = editDiff(source, expected, diffOptions);
  const got = editDiff(source, actual, diffOptions);
  const wanted = atomic(source, expected, want);
  const made = atomic(source, actual, got);
  const id = (c: EditChange, tokens: { text: string }[]) =>
    `${c.sourceStart}:${c.sourceEnd}:${tokens.slice(c.targetStart, c.targetEnd).map(t => normalizeWith(t.text, norm)).join('\u0000')}`;
  const wantIds = new Set(wanted.map(c => id(c, want.targetTokens)));
  const gotIds = new Set(made.map(c => id(c, got.targetTokens)));
  const extraChanges = made.filter(c => !wantIds.has(id(c, got.targetTokens)));
  const missingChanges = wanted.filter(c => !gotIds.has(id(c, want.targetTokens)));
  const code = verdict(made, extraChanges, missingChanges);
  return { ok: code === 'match', code, reason: explain(code, wanted, extraChanges, missingChanges), extraChanges, missingChanges };
}

/**
 * Hunks split into one-token replacements where a hunk swaps k tokens for k others, so that fixing
 * two neighbouring words counts as two edits: a tutor who makes the expected fix plus a change to
 * the next word then shows one extra edit rather than one different, larger edit.
 */
function atomic(source: string, target: string, diff: EditDiff): EditChange[] {
  return diff.changes.flatMap(c => {
    const n = c.sourceEnd - c.sourceStart;
    if (c.kind !== 'replace' || n !== c.targetEnd - c.targetStart || n === 1) return [c];
    return Array.from({ length: n }, (_, k) =>
      makeChange(source, diff.sourceTokens, c.sourceStart + k, c.sourceStart + k + 1, target, diff.targetTokens, c.targetStart + k, c.targetStart + k + 1));
  });
}

function verdict(made: EditChange[], extra: EditChange[], missing: EditChange[]): SameEditCode {
  if (extra.length === 0 && missing.length === 0) return 'match';
  if (made.length === 0) return 'unchanged';
  if (extra.length === 0) return 'missing-edits';
  if (missing.length === 0) return 'extra-edits';
  const span = (c: EditChange) => `${c.sourceStart}:${c.sourceEnd}`;
  const missed = new Set(missing.map(span));
  const wrongOnly = extra.length === missing.length && extra.every(c => missed.has(span(c)));
  return wrongOnly ? 'wrong-edit' : 'different-edits';
}

function describe(c: EditChange): string {
  if (c.kind === 'insert') return `insert «${c.targetText}»`;
  if (c.kind === 'delete') return `delete «${c.sourceText}»`;
  return `«${c.sourceText}» → «${c.targetText}»`;
}

function list(changes: EditChange[]): string {
  return changes.map(describe).join('; ');
}

function explain(code: SameEditCode, wanted: EditChange[], extra: EditChange[], missing: EditChange[]): string {
  switch (code) {
    case 'match':
      return wanted.length === 0 ? 'no edit was expected and none was made' : `makes exactly the expected edit(s): ${list(wanted)}`;
    case 'unchanged':
      return `changes nothing; expected: ${list(missing)}`;
    case 'wrong-edit':
      return `wrong edit: ${list(extra)} where ${list(missing)} was expected`;
    case 'extra-edits':
      return wanted.length === 0
        ? `no edit was expected but it makes ${extra.length}: ${list(extra)}`
        : `makes the expected edit(s) and ${extra.length} more: ${list(extra)}`;
    case 'missing-edits':
      return `misses ${missing.length} expected edit(s): ${list(missing)}`;
    case 'different-edits':
      return `makes ${list(extra)}; expected ${list(missing)}`;
  }
}
