import { editDiff, type Token } from '../../metrics/edit-diff.js';
import { TUTOR_EDIT_NORMALIZE } from '../../scoring/tutor-edit/index.js';
import type { BlimpRecord } from '../sources/blimp.js';

/** One side of a span difference: the differing text and where it sits in its sentence (as a token does). */
export type Side = Token;

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
 * Word-level difference of a minimal pair, by the tokenizer and token comparison the tutor test's
 * marking uses (metrics' editDiff with TUTOR_EDIT_NORMALIZE), so the span an item names is the edit
 * marking looks for. One hunk is the span; two or more mean the pair differs in two or more places,
 * which a single blank or a single correction cannot express.
 */
export function diffSentences(good: string, bad: string): PairDiff {
  const { sourceTokens: a, targetTokens: b, changes } = editDiff(good, bad, { normalize: TUTOR_EDIT_NORMALIZE });
  if (changes.length === 0) return { kind: 'identical' };
  if (changes.length > 1) return { kind: 'not-contiguous' };
  // Everything before the one hunk is equal, so it starts at the same token on both sides.
  const hunk = changes[0]!;
  let head = hunk.sourceStart;
  let aEnd = hunk.sourceEnd;
  let bEnd = hunk.targetEnd;
  let widened = false;
  if (head === aEnd || head === bEnd) {
    widened = true;
    if (head > 0) head--;
    else if (aEnd < a.length) {
      aEnd++;
      bEnd++;
    } else return { kind: 'identical' };
  }
  const goodSide = side(good, a, head, aEnd);
  const badSide = side(bad, b, head, bEnd);
  const before = good.slice(0, goodSide.start);
  const after = good.slice(goodSide.end);
  if (bad.slice(0, badSide.start) !== before || bad.slice(badSide.end) !== after) return { kind: 'spacing-differs' };
  return { kind: 'span', good: goodSide, bad: badSide, before, after, widened };
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
