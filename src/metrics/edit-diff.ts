import { normalizeWith, resolveNormalizeOptions, type NormalizeOptions } from './normalize.js';

/** A token and where it sits in its text (UTF-16 offsets, so `text.slice(start, end)` gives it back). */
export interface Token {
  text: string;
  start: number;
  end: number;
}

/** One hunk of a token-level edit script. */
export interface EditChange {
  kind: 'replace' | 'insert' | 'delete';
  /** Source tokens [sourceStart, sourceEnd) are replaced or deleted; equal for an insert. */
  sourceStart: number;
  sourceEnd: number;
  /** Target tokens [targetStart, targetEnd) are inserted or replace them; equal for a delete. */
  targetStart: number;
  targetEnd: number;
  /**
   * Character span of the change in the source, UTF-16 offsets. For an insert both are the point of
   * insertion: the start of the next source token, or the end of the last one.
   */
  sourceCharStart: number;
  sourceCharEnd: number;
  /** Character span in the target, as for the source. */
  targetCharStart: number;
  targetCharEnd: number;
  /** The source text of the span, inner whitespace included (`''` for an insert). */
  sourceText: string;
  /** The target text of the span (`''` for a delete). */
  targetText: string;
}

/** A token-level diff of two texts. */
export interface EditDiff {
  sourceTokens: Token[];
  targetTokens: Token[];
  /** Hunks in source order; never two adjacent ones (a delete next to an insert is one replace). */
  changes: EditChange[];
  /** True when the token sequences are equal (under the comparison used). */
  unchanged: boolean;
}

/** How `editDiff` compares tokens. */
export interface EditDiffOptions {
  /**
   * Compare tokens after `normalizeAnswer` with these options (`{}` for its defaults). Default:
   * tokens compare by exact text. Whitespace is never a token, so it never differs.
   */
  normalize?: NormalizeOptions;
}

// A word is a run of letters, marks and digits, joined across a single apostrophe or hyphen
// (m'athair, i'n, t-uisce, don't, well-known); digits also join across . and , (3.5, 1,000).
// Anything else that is not whitespace is a token of one code point.
const J = "['\u2019\u2018\u02bc`\u00b4\\-\u2010\u2011]";
const TOKEN = new RegExp(`\\p{N}+(?:[.,]\\p{N}+)+|[\\p{L}\\p{M}\\p{N}]+(?:${J}[\\p{L}\\p{M}\\p{N}]+)*|\\S`, 'gu');

/**
 * Words and punctuation marks of `text` as tokens with their offsets. Letters with diacritics
 * (Irish fadas, Welsh circumflexes) and apostrophes or hyphens inside a word stay in the word; a
 * trailing apostrophe (Scottish Gaelic `a'`) is a token of its own. Empty or all-whitespace text
 * gives no tokens.
 */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * A minimal token-level edit script from `source` to `target` (Myers' O(ND) shortest edit script,
 * the algorithm behind GNU diff and git diff), grouped into replace/insert/delete hunks with token
 * and character spans. Ties between equally short scripts are broken the same way every time, so
 * equal inputs always give equal hunks. Edge cases: both empty gives no changes; an empty source
 * gives one insert of everything; an empty target one delete.
 */
export function editDiff(source: string, target: string, options: EditDiffOptions = {}): EditDiff {
  const sourceTokens = tokenize(source);
  const targetTokens = tokenize(target);
  const norm = options.normalize ? resolveNormalizeOptions(options.normalize) : undefined;
  const key = (t: Token) => (norm ? normalizeWith(t.text, norm) : t.text);
  const ops = shortestEditScript(sourceTokens.map(key), targetTokens.map(key));
  const changes: EditChange[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  while (k < ops.length) {
    if (ops[k] === EQUAL) {
      i++, j++, k++;
      continue;
    }
    const [i0, j0] = [i, j];
    for (; k < ops.length && ops[k] !== EQUAL; k++) ops[k] === DELETE ? i++ : j++;
    changes.push(makeChange(source, sourceTokens, i0, i, target, targetTokens, j0, j));
  }
  return { sourceTokens, targetTokens, changes, unchanged: changes.length === 0 };
}

/** The change replacing source tokens [i0, i1) with target tokens [j0, j1), with its character spans. */
export function makeChange(source: string, st: Token[], i0: number, i1: number, target: string, tt: Token[], j0: number, j1: number): EditChange {
  const [sc0, sc1] = charSpan(st, i0, i1);
  const [tc0, tc1] = charSpan(tt, j0, j1);
  return {
    kind: i0 === i1 ? 'insert' : j0 === j1 ? 'delete' : 'replace',
    sourceStart: i0, sourceEnd: i1, targetStart: j0, targetEnd: j1,
    sourceCharStart: sc0, sourceCharEnd: sc1, targetCharStart: tc0, targetCharEnd: tc1,
    sourceText: source.slice(sc0, sc1), targetText: target.slice(tc0, tc1),
  };
}

function charSpan(tokens: Token[], a: number, b: number): [number, number] {
  if (a < b) return [tokens[a]!.start, tokens[b - 1]!.end];
  const at = a < tokens.length ? tokens[a]!.start : a > 0 ? tokens[a - 1]!.end : 0;
  return [at, at];
}

const EQUAL = 0;
const DELETE = 1;
const INSERT = 2;

/**
 * Myers' greedy forward search, keeping each round's frontier to walk the path back. The common
 * prefix and suffix are matched first, so memory is O(D^2) in the number of differences D only.
 */
function shortestEditScript(a: readonly string[], b: readonly string[]): number[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  const x0 = pre;
  const y0 = pre;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    // Frontier before round d, for k in [-d-1, d+1] (index shifted by d+1).
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x0 + x] === b[y0 + y]) x++, y++;
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  const middle: number[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const row = trace[d]!;
    const at = (k: number) => row[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    while (x > px + (down ? 0 : 1) && y > py + (down ? 1 : 0)) x--, y--, middle.push(EQUAL);
    middle.push(down ? INSERT : DELETE);
    x = px;
    y = py;
  }
  while (x > 0 && y > 0) x--, y--, middle.push(EQUAL);
  middle.reverse();
  return [...new Array<number>(pre).fill(EQUAL), ...middle, ...new Array<number>(suf).fill(EQUAL)];
}
