import { MetricInputError } from './errors.js';
import { NgramMatcher } from './ngram-matcher.js';

/** chrF settings; names and defaults follow sacrebleu 2.6.0's `CHRF` (snake_case there). */
export interface ChrFOptions {
  /** Character n-gram orders 1..charOrder. Default 6. */
  charOrder?: number;
  /** Word n-gram orders 1..wordOrder. Default 0 (chrF); 2 gives chrF++. */
  wordOrder?: number;
  /** Recall weight of the F-score. Default 2. */
  beta?: number;
  /** Keep whitespace inside character n-grams. Default false: all whitespace is removed first. */
  whitespace?: boolean;
  /**
   * Default false: average precision and recall over the orders both sides have n-grams of
   * (sacrebleu's "effective order", `eff:yes`). True: average per-order F-scores over all orders with
   * 1e-16 for undefined ones, as chrF++.py, NLTK and Moses do (`eff:no`).
   */
  epsSmoothing?: boolean;
  /** Lowercase hypothesis and references first (`case:lc`). Default false. */
  lowercase?: boolean;
}

/** Options with every default filled in, as recorded with a score. */
export type ResolvedChrFOptions = Required<ChrFOptions>;

/**
 * The statistics of one segment, enough to recompute any corpus score that contains it. Store
 * these per trial; `chrFFromStats` sums them.
 */
export interface ChrFSegmentStats {
  /**
   * [hyp, ref, match] n-gram counts per order, character orders 1..charOrder then word orders
   * 1..wordOrder (sacrebleu's layout), from the reference that gave the best F-score.
   */
  counts: number[];
  /** How many non-empty references the segment had. */
  nrefs: number;
}

/** A chrF score and what it was computed from. */
export interface ChrFResult {
  /** chrF on sacrebleu's 0-100 scale. */
  score: number;
  /** sacrebleu's metric name: `chrF` + beta + one `+` per word order, e.g. `chrF2++`. */
  name: string;
  /**
   * `name|` + sacrebleu's signature, e.g.
   * `chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0` (sacrebleu's text output
   * prints the same string before ` = score`). The version is that of the sacrebleu release the
   * numbers match; Paideia computed them, as `producedBy` records.
   */
  signature: string;
  /** The signature is sacrebleu-compatible but the score was computed by Paideia, not sacrebleu. */
  producedBy: 'paideia';
  /** Corpus [hyp, ref, match] counts per order, summed over segments (layout as in ChrFSegmentStats). */
  counts: number[];
  /** Non-empty references per segment, or `var` when segments differ (as sacrebleu reports it). */
  nrefs: number | 'var';
  /** Number of segments scored. */
  segments: number;
  options: ResolvedChrFOptions;
}

/** The sacrebleu release whose numbers Paideia's chrF reproduces (test/conformance/chrf.json). */
export const SACREBLEU_VERSION = '2.6.0';

const DEFAULTS: ResolvedChrFOptions = {
  charOrder: 6, wordOrder: 0, beta: 2, whitespace: false, epsSmoothing: false, lowercase: false,
};

/**
 * Fills defaults and rejects what sacrebleu would not accept: unknown keys, orders that are not
 * whole numbers >= 0 (or sum to 0), a negative or non-finite beta, non-boolean switches.
 */
export function resolveChrFOptions(options: ChrFOptions = {}): ResolvedChrFOptions {
  const o = { ...DEFAULTS };
  for (const [k, v] of Object.entries(options)) {
    if (!(k in DEFAULTS)) throw new MetricInputError(`Unknown chrF option "${k}". Known: ${Object.keys(DEFAULTS).join(', ')}.`);
    if (v === undefined) continue;
    if (typeof v !== typeof DEFAULTS[k as keyof ChrFOptions]) {
      throw new MetricInputError(`chrF option "${k}" must be a ${typeof DEFAULTS[k as keyof ChrFOptions]}, got ${JSON.stringify(v)}.`);
    }
    (o as Record<string, unknown>)[k] = v;
  }
  for (const key of ['charOrder', 'wordOrder'] as const) {
    if (!Number.isInteger(o[key]) || o[key] < 0) throw new MetricInputError(`chrF option ${key} must be a whole number >= 0, got ${o[key]}.`);
  }
  if (o.charOrder + o.wordOrder === 0) throw new MetricInputError('chrF needs charOrder + wordOrder >= 1 (sacrebleu default: charOrder 6).');
  if (!Number.isFinite(o.beta) || o.beta < 0) throw new MetricInputError(`chrF option beta must be a finite number >= 0, got ${o.beta}.`);
  return o;
}

/** sacrebleu's metric name for these options, e.g. `chrF2++` for beta 2 and word order 2. */
export function chrFName(options: ChrFOptions = {}): string {
  const o = resolveChrFOptions(options);
  return `chrF${o.beta}${'+'.repeat(o.wordOrder)}`;
}

/** The signature string described on `ChrFResult.signature`. */
export function chrFSignature(options: ChrFOptions = {}, nrefs: number | 'var' = 1): string {
  const o = resolveChrFOptions(options);
  return [
    chrFName(o), `nrefs:${nrefs}`, `case:${o.lowercase ? 'lc' : 'mixed'}`, `eff:${o.epsSmoothing ? 'no' : 'yes'}`,
    `nc:${o.charOrder}`, `nw:${o.wordOrder}`, `space:${o.whitespace ? 'yes' : 'no'}`, `version:${SACREBLEU_VERSION}`,
  ].join('|');
}

/**
 * chrF of counts laid out as in ChrFSegmentStats, on the 0-100 scale, with sacrebleu 2.6.0's
 * arithmetic (`CHRF._compute_f_score`), including the order of floating-point operations.
 */
export function chrFFromCounts(counts: ArrayLike<number>, options: ChrFOptions = {}): number {
  const o = resolveChrFOptions(options);
  return fScore(counts, o.charOrder + o.wordOrder, o.beta ** 2, o.epsSmoothing);
}

function fScore(counts: ArrayLike<number>, orders: number, factor: number, eps: boolean): number {
  const EPS = 1e-16;
  let sumF = 0;
  let avgPrec = 0;
  let avgRec = 0;
  let effective = 0;
  for (let i = 0; i < orders; i++) {
    const hyp = counts[3 * i]!;
    const ref = counts[3 * i + 1]!;
    const match = counts[3 * i + 2]!;
    const prec = hyp > 0 ? match / hyp : EPS;
    const rec = ref > 0 ? match / ref : EPS;
    if (eps) {
      const denom = factor * prec + rec;
      sumF += denom > 0 ? ((1 + factor) * prec * rec) / denom : EPS;
    } else if (hyp > 0 && ref > 0) {
      avgPrec += prec;
      avgRec += rec;
      effective++;
    }
  }
  if (eps) return (100 * sumF) / orders;
  if (effective === 0) return 0;
  avgPrec /= effective;
  avgRec /= effective;
  if (avgPrec + avgRec === 0) return 0;
  return 100 * (((1 + factor) * avgPrec * avgRec) / (factor * avgPrec + avgRec));
}

let shared: NgramMatcher | undefined;

/**
 * Statistics of one segment against its references, kept from the reference with the best F-score
 * (the first one on a tie), as sacrebleu does. Empty-string references are dropped, as sacrebleu
 * drops them; a segment left with none throws MetricInputError (sacrebleu raises too). An empty or
 * all-whitespace hypothesis is scored normally: it has no n-grams, so precision and recall are 0.
 */
export function chrFSegmentStats(hypothesis: string, references: readonly string[], options: ChrFOptions = {}): ChrFSegmentStats {
  return segmentStats(hypothesis, references, resolveChrFOptions(options), (shared ??= new NgramMatcher()), 'this segment');
}

function segmentStats(hypothesis: string, references: readonly string[], o: ResolvedChrFOptions, matcher: NgramMatcher, where: string): ChrFSegmentStats {
  const refs = references.filter(r => typeof r === 'string' && r !== '');
  if (refs.length === 0) {
    throw new MetricInputError(`chrF: ${where} has no non-empty reference. Give at least one reference text, or leave the segment out.`);
  }
  const texts = [hypothesis, ...refs].map(t => (o.lowercase ? t.toLowerCase() : t));
  const width = 3 * (o.charOrder + o.wordOrder);
  const rows = refs.map(() => new Array<number>(width).fill(0));
  if (o.charOrder > 0) matcher.charStats(texts, o.charOrder, o.whitespace, rows, 0);
  if (o.wordOrder > 0) matcher.wordStats(texts, o.wordOrder, rows, 3 * o.charOrder);
  let best = rows[0]!;
  if (rows.length > 1) {
    const orders = o.charOrder + o.wordOrder;
    let bestF = -1;
    for (const row of rows) {
      const f = fScore(row, orders, o.beta ** 2, o.epsSmoothing);
      if (f > bestF) [bestF, best] = [f, row];
    }
  }
  return { counts: best, nrefs: refs.length };
}

/**
 * Per-segment statistics of a corpus. `referenceStreams[k][i]` is the k-th reference of segment i
 * (sacrebleu's layout); a stream may hold `''` where a segment has fewer references. Throws
 * MetricInputError when a stream's length differs from the hypotheses' (sacrebleu's API would
 * silently truncate) or a segment has no non-empty reference.
 */
export function corpusChrFSegmentStats(hypotheses: readonly string[], referenceStreams: readonly (readonly string[])[], options: ChrFOptions = {}): ChrFSegmentStats[] {
  const o = resolveChrFOptions(options);
  if (referenceStreams.length === 0) throw new MetricInputError('chrF: no reference streams given; pass [references] for one reference per segment.');
  referenceStreams.forEach((stream, k) => {
    if (stream.length !== hypotheses.length) {
      throw new MetricInputError(`chrF: reference stream ${k} has ${stream.length} segments but there are ${hypotheses.length} hypotheses; streams must line up with the hypotheses.`);
    }
  });
  const matcher = (shared ??= new NgramMatcher());
  return hypotheses.map((hyp, i) => segmentStats(hyp, referenceStreams.map(s => s[i]!), o, matcher, `segment ${i}`));
}

/**
 * Corpus chrF from stored per-segment statistics: counts are summed over segments, then one
 * F-score is taken (sacrebleu's corpus score; not a mean of sentence scores). The options must be
 * those the statistics were computed with. Throws MetricInputError on an empty list or counts of
 * the wrong length.
 */
export function chrFFromStats(segments: readonly ChrFSegmentStats[], options: ChrFOptions = {}): ChrFResult {
  const o = resolveChrFOptions(options);
  if (segments.length === 0) throw new MetricInputError('chrF: no segments to score; a corpus needs at least one segment.');
  const width = 3 * (o.charOrder + o.wordOrder);
  const counts = new Array<number>(width).fill(0);
  const nrefs = new Set<number>();
  segments.forEach((seg, i) => {
    if (seg.counts.length !== width) {
      throw new MetricInputError(`chrF: segment ${i} has ${seg.counts.length} counts, expected ${width} for charOrder ${o.charOrder} + wordOrder ${o.wordOrder}; score with the options the statistics were computed with.`);
    }
    for (let j = 0; j < width; j++) counts[j]! += seg.counts[j]!;
    nrefs.add(seg.nrefs);
  });
  const n: number | 'var' = nrefs.size === 1 ? [...nrefs][0]! : 'var';
  return {
    score: fScore(counts, o.charOrder + o.wordOrder, o.beta ** 2, o.epsSmoothing),
    name: chrFName(o),
    signature: chrFSignature(o, n),
    producedBy: 'paideia',
    counts,
    nrefs: n,
    segments: segments.length,
    options: o,
  };
}

/**
 * Sentence-level chrF (chrF++ with `wordOrder: 2`) of one hypothesis against one or more
 * references; equals sacrebleu 2.6.0 `CHRF(...).sentence_score(hypothesis, references)`.
 * Edge cases, all as in sacrebleu: an empty or all-whitespace hypothesis has no n-grams and scores
 * 0; an all-whitespace reference is kept but (unless `whitespace: true`) has no n-grams, so it scores 0; an
 * empty-string reference is ignored, and no non-empty reference throws MetricInputError.
 */
export function chrF(hypothesis: string, references: readonly string[], options: ChrFOptions = {}): ChrFResult {
  return chrFFromStats([chrFSegmentStats(hypothesis, references, options)], options);
}

/**
 * Corpus-level chrF; equals sacrebleu 2.6.0 `CHRF(...).corpus_score(hypotheses, referenceStreams)`:
 * per-segment statistics (best reference per segment) are summed, then one F-score is taken.
 * `referenceStreams[k][i]` is the k-th reference of segment i. Edge cases as in `chrF` and
 * `corpusChrFSegmentStats`.
 */
export function corpusChrF(hypotheses: readonly string[], referenceStreams: readonly (readonly string[])[], options: ChrFOptions = {}): ChrFResult {
  return chrFFromStats(corpusChrFSegmentStats(hypotheses, referenceStreams, options), options);
}
