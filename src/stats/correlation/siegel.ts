import { samplingRng } from './bracket.js';
import { badOption, pairedSamples } from './errors.js';
import { medianInPlace, selectMany } from './select.js';
import { sortByX } from './sorted-pairs.js';

export interface SiegelOptions {
  /**
   * Intercept: 'hierarchical' (default) median(y - slope x); 'separate' the repeated median of
   * the pairwise intercepts (x_i y_j - x_j y_i) / (x_i - x_j).
   */
  method?: 'hierarchical' | 'separate';
}

export interface SiegelResult {
  slope: number;
  intercept: number;
}

/**
 * Siegel (1982) repeated-medians slope, as scipy.stats.siegelslopes: for each point j the median
 * slope to every point with a different x, then the median of those medians. Medians average
 * the two middle values. NaN (slope and intercept) when every x is equal, where scipy's medians
 * are of empty sets. O(n^2) time, O(n) memory.
 */
export function siegel(x: ArrayLike<number>, y: ArrayLike<number>, options: SiegelOptions = {}): SiegelResult {
  const fn = 'siegel';
  const { method = 'hierarchical' } = options;
  if (method !== 'hierarchical' && method !== 'separate') {
    throw badOption(fn, 'method', `method must be 'hierarchical' or 'separate', got ${JSON.stringify(method)}.`);
  }
  const [xIn, yIn] = pairedSamples(x, y, fn, 2);
  const n = xIn.length;
  if (xIn.every(v => v === xIn[0])) return { slope: NaN, intercept: NaN };
  // Medians of multisets do not depend on order, so work in x order where each point's equal-x
  // partners are one contiguous block that the row loops step over.
  const { x: xs, y: ys, groupStart, groupEnd } = sortByX(xIn, yIn);
  // Row j: the slopes (or intercepts) from point j to every point with a different x, computed
  // as scipy does. Written out twice rather than through a shared per-pair callback, which
  // measured ~10% slower.
  const slopeRow = (j: number, out: Float64Array): number => {
    const xj = xs[j]!;
    const yj = ys[j]!;
    let count = 0;
    for (let i = 0, end = groupStart[j]!; i < end; i++) out[count++] = (yj - ys[i]!) / (xj - xs[i]!);
    for (let i = groupEnd[j]!; i < n; i++) out[count++] = (yj - ys[i]!) / (xj - xs[i]!);
    return count;
  };
  const slope = repeatedMedian(n, slopeRow);
  if (method === 'separate') {
    const interceptRow = (j: number, out: Float64Array): number => {
      const xj = xs[j]!;
      const yj = ys[j]!;
      let count = 0;
      for (let i = 0, end = groupStart[j]!; i < end; i++) out[count++] = (ys[i]! * xj - yj * xs[i]!) / (xj - xs[i]!);
      for (let i = groupEnd[j]!; i < n; i++) out[count++] = (ys[i]! * xj - yj * xs[i]!) / (xj - xs[i]!);
      return count;
    };
    return { slope, intercept: repeatedMedian(n, interceptRow) };
  }
  const residual = new Float64Array(n);
  for (let i = 0; i < n; i++) residual[i] = ys[i]! - slope * xs[i]!;
  return { slope, intercept: medianInPlace(residual) };
}

/**
 * median_j median(row j), where `fill` writes row j and returns its length (> 0).
 *
 * Only the row medians near the overall median need computing exactly. The exact medians of a
 * sample of rows bracket the answer in [low, high]; every other row is then classified by one
 * counting pass (both middle values below `low`, or both above `high`), and only rows that may
 * straddle the bracket get a selection. That replaces n selections by about
 * (1.5 n)^(2/3) + 3 n / sqrt(sample) of them. Exact: if the bracket turns out to miss the
 * answer, every row median is computed.
 */
export function repeatedMedian(n: number, fill: (j: number, out: Float64Array) => number): number {
  const buffer = new Float64Array(n);
  const exact = new Float64Array(n).fill(NaN);
  const rowMedian = (j: number): number => (exact[j] = medianInPlace(buffer, fill(j, buffer)));
  const k1 = Math.floor((n - 1) / 2);
  const k2 = Math.floor(n / 2);
  const sampleSize = Math.ceil((1.5 * n) ** (2 / 3));
  if (n < 64 || sampleSize * 4 > n) {
    for (let j = 0; j < n; j++) rowMedian(j);
    return medianOf(exact, k1, k2);
  }
  const rng = samplingRng(n);
  const sample = new Float64Array(sampleSize);
  for (let s = 0; s < sampleSize; s++) {
    const j = Math.floor(rng() * n);
    sample[s] = Number.isNaN(exact[j]!) ? rowMedian(j) : exact[j]!;
  }
  const margin = Math.ceil(1.5 * Math.sqrt(sampleSize)) + 1;
  const lo = Math.floor((k1 / n) * sampleSize) - margin;
  const hi = Math.ceil(((k2 + 1) / n) * sampleSize) + margin;
  const [low, high] = lo >= 0 && hi < sampleSize ? selectMany(sample, [lo, hi]) : [-Infinity, Infinity];

  let below = 0;
  let above = 0;
  const inside: number[] = [];
  for (let j = 0; j < n; j++) {
    let m = exact[j]!;
    if (Number.isNaN(m)) {
      const count = fill(j, buffer);
      let under = 0;
      let over = 0;
      for (let i = 0; i < count; i++) {
        const v = buffer[i]!;
        under += +(v < low!);
        over += +(v > high!);
      }
      // Sorted positions of the row's middle values are (count-1)>>1 and count>>1.
      if (under > count >> 1) {
        below++;
        continue;
      }
      if (over > count >> 1) {
        above++;
        continue;
      }
      m = exact[j] = medianInPlace(buffer, count);
    }
    if (m < low!) below++;
    else if (m > high!) above++;
    else inside.push(m);
  }
  if (below <= k1 && k2 < below + inside.length) {
    const [a, b] = selectMany(Float64Array.from(inside), [k1 - below, k2 - below]);
    return (a! + b!) / 2;
  }
  for (let j = 0; j < n; j++) if (Number.isNaN(exact[j]!)) rowMedian(j);
  return medianOf(exact, k1, k2);
}

function medianOf(values: Float64Array, k1: number, k2: number): number {
  const [a, b] = selectMany(values, [k1, k2]);
  return (a! + b!) / 2;
}
