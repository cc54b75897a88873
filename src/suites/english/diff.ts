import type { BlimpRecord } from '../sources/blimp.js';

/** A word or a single punctuation mark, with its character offsets in the sentence. */
export interface Token {
  text: string;
  start: number;
  end: number;
}

// A word keeps inner apostrophes and hyphens (can't, James's, well-known); any other non-space
// character is a token of its own, so a final "." never sticks to the differing word.
const TOKEN = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;

export function tokenize(sentence: string): Token[] {
  return [...sentence.matchAll(TOKEN)].map(m => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

/** One side of a span difference: the differing text and where it sits in its sentence. */
export interface Side {
  text: string;
  start: number;
  end: number;
}

/** The pair differs in exactly one contiguous run of tokens. */
export interface SpanDiff {
  kind: 'span';
  good: Side;
  bad: Side;
  /** Text before and after the span, identical in both sentences. */
  before: string;
  after: string;
  /**
   * One side was empty (a word added or left out); both spans were widened by the neighbouring
   * word so that neither option of a blank is empty and the wrong span names a visible word.
   */
  widened: boolean;
}

/** Why a pair has no usable single span. */
export type DiffFailure = 'identical' | 'not-contiguous' | 'spacing-differs' | 'prefix-fields-disagree';

export type PairDiff = SpanDiff | { kind: DiffFailure };

/** Plain-words explanation of each failure, for shortfall reasons. */
export const DIFF_FAILURE_TEXT: Record<DiffFailure, string> = {
  identical: 'the two sentences have the same words',
  'not-contiguous': 'the sentences differ in more than one place (not a single contiguous span)',
  'spacing-differs': 'the sentences differ only in spacing around the differing words',
  'prefix-fields-disagree': "the word difference disagrees with the record's one_prefix/two_prefix fields",
};

/**
 * Word-level difference of a minimal pair: strip the common leading and trailing tokens; what is
 * left on each side is the span. If the two leftovers still share a token, the pair differs in
 * two or more places, which a single blank or a single correction cannot express.
 */
export function diffSentences(good: string, bad: string): PairDiff {
  const a = tokenize(good);
  const b = tokenize(bad);
  let head = 0;
  while (head < a.length && head < b.length && a[head]!.text === b[head]!.text) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail]!.text === b[b.length - 1 - tail]!.text) tail++;
  let aEnd = a.length - tail;
  let bEnd = b.length - tail;
  if (head === aEnd && head === bEnd) return { kind: 'identical' };
  let widened = false;
  if (head === aEnd || head === bEnd) {
    widened = true;
    if (head > 0) head--;
    else if (tail > 0) {
      aEnd++;
      bEnd++;
    } else return { kind: 'identical' };
  }
  const aMid = a.slice(head, aEnd).map(t => t.text);
  const bMid = b.slice(head, bEnd).map(t => t.text);
  if (!widened && sharesToken(aMid, bMid)) return { kind: 'not-contiguous' };
  const goodSide = side(good, a, head, aEnd);
  const badSide = side(bad, b, head, bEnd);
  const before = good.slice(0, goodSide.start);
  const after = good.slice(goodSide.end);
  if (bad.slice(0, badSide.start) !== before || bad.slice(badSide.end) !== after) return { kind: 'spacing-differs' };
  return { kind: 'span', good: goodSide, bad: badSide, before, after, widened };
}

// A shared token means a longest common subsequence of length >= 1: an unchanged word between
// two changes, so the pair differs in two places.
function sharesToken(a: string[], b: string[]): boolean {
  const set = new Set(a);
  return b.some(t => set.has(t));
}

function side(sentence: string, tokens: Token[], from: number, to: number): Side {
  const start = tokens[from]!.start;
  const end = tokens[to - 1]!.end;
  return { text: sentence.slice(start, end), start, end };
}

/**
 * The diff of a BLiMP record, cross-checked with the paradigm's own prefix fields: the span must
 * lie inside `one_prefix_word_*` (right after `one_prefix_prefix`) or inside `two_prefix_prefix_*`.
 * A disagreement means the record is not the minimal pair its fields describe, so it is skipped.
 */
export function diffRecord(record: BlimpRecord): PairDiff {
  const diff = diffSentences(record.sentence_good, record.sentence_bad);
  if (diff.kind !== 'span') return diff;
  const ok =
    (!record.one_prefix_method ||
      (within(record.sentence_good, diff.good, record.one_prefix_prefix!, record.one_prefix_word_good!) &&
        within(record.sentence_bad, diff.bad, record.one_prefix_prefix!, record.one_prefix_word_bad!))) &&
    (!record.two_prefix_method ||
      (within(record.sentence_good, diff.good, '', record.two_prefix_prefix_good!) &&
        within(record.sentence_bad, diff.bad, '', record.two_prefix_prefix_bad!)));
  return ok ? diff : { kind: 'prefix-fields-disagree' };
}

/** The sentence reads `<prefix> <region>…` (or `<region>…` with no prefix) and the span falls inside `region`. */
function within(sentence: string, span: Side, prefix: string, region: string): boolean {
  const lead = prefix ? `${prefix} ` : '';
  if (!sentence.startsWith(lead + region)) return false;
  return span.start >= lead.length && span.end <= lead.length + region.length;
}
