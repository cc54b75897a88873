import { bracketsFor, resolveBrackets, samplingRng } from './bracket.js';
import { badOption, pairedSamples } from './errors.js';
import { denseRanks, sumOverTies } from './ranks.js';
import { median, medianInPlace, selectMany } from './select.js';
import { sortByX, type SortedByX } from './sorted-pairs.js';
import { normalPpf } from './special.js';

export interface TheilSenOptions {
  /**
   * Confidence degree of the slope interval, as scipy's `alpha` (default 0.95). The interval is
   * symmetric in it: 0.05 and 0.95 both give the 95% interval.
   */
  alpha?: number;
  /** Intercept: 'separate' (default) median(y) - slope median(x); 'joint' median(y - slope x). */
  method?: 'separate' | 'joint';
}

export interface TheilSenResult {
  slope: number;
  intercept: number;
  /** Lower and upper bound of the Sen (1968) confidence interval for the slope. */
  low: number;
  high: number;
}

/**
 * Theil-Sen slope: the median of (y_j - y_i) / (x_j - x_i) over pairs with x_j > x_i (pairs with
 * equal x are dropped), as scipy.stats.theilslopes. Medians average the two middle values.
 * When every x is equal there are no slopes and all four results are NaN (scipy warns and
 * returns NaN). O(n^2) time; O(n) memory beyond a few percent of the slopes, which are
 * streamed twice rather than stored (see slopeOrderStatistics).
 */
export function theilSen(x: ArrayLike<number>, y: ArrayLike<number>, options: TheilSenOptions = {}): TheilSenResult {
  const fn = 'theilSen';
  const { alpha = 0.95, method = 'separate' } = options;
  if (!(alpha > 0 && alpha < 1)) throw badOption(fn, 'alpha', `alpha must be strictly between 0 and 1, got ${alpha}.`);
  if (method !== 'separate' && method !== 'joint') {
    throw badOption(fn, 'method', `method must be 'separate' or 'joint', got ${JSON.stringify(method)}.`);
  }
  const [xs, ys] = pairedSamples(x, y, fn, 2);
  const n = xs.length;
  const points = sortByX(xs, ys);
  const { xCounts } = points;
  // Pairs with distinct x: all pairs minus those inside a tie group of x.
  const count = (n * (n - 1)) / 2 - sumOverTies(xCounts, t => (t * (t - 1)) / 2);
  if (count === 0) return { slope: NaN, intercept: NaN, low: NaN, high: NaN };

  // Sen (1968) eq. 2.6: tie-corrected variance of Kendall's S, then ranks into the sorted slopes.
  const a = alpha > 0.5 ? 1 - alpha : alpha;
  const z = normalPpf(a / 2);
  const ties = (t: number): number => t * (t - 1) * (2 * t + 5);
  const sigma = Math.sqrt((n * (n - 1) * (2 * n + 5) - sumOverTies(xCounts, ties) - sumOverTies(denseRanks(ys).counts, ties)) / 18);
  // Heavy ties in both x and y can make the variance negative; scipy then gives a NaN interval.
  const hasInterval = Number.isFinite(sigma);
  const upper = hasInterval ? Math.min(roundHalfEven((count - z * sigma) / 2), count - 1) : 0;
  const lower = hasInterval ? Math.max(roundHalfEven((count + z * sigma) / 2) - 1, 0) : 0;
  const h = Math.floor(count / 2);
  const middle = count % 2 === 1 ? [h] : [h - 1, h];
  const [mid, lowSlope, highSlope] = slopeOrderStatistics(points, count, [middle, [lower], [upper]]);
  const slope = mid!.length === 1 ? mid![0]! : (mid![0]! + mid![1]!) / 2;
  const [low, high] = hasInterval ? [lowSlope![0]!, highSlope![0]!] : [NaN, NaN];

  let intercept: number;
  if (method === 'joint') {
    const residual = new Float64Array(n);
    for (let i = 0; i < n; i++) residual[i] = ys[i]! - slope * xs[i]!;
    intercept = medianInPlace(residual);
  } else intercept = median(ys) - slope * median(xs);
  return { slope, intercept, low, high };
}

/** Below this many slopes, store them all and select; above, bracket by sampling (see bracket.ts). */
const MATERIALISE_LIMIT = 200_000;

/**
 * The slopes at the given sorted ranks, for each group of ranks. Slopes are over pairs with
 * distinct x, taken from the smaller x to the larger exactly as scipy does.
 */
function slopeOrderStatistics(points: SortedByX, count: number, groups: number[][]): number[][] {
  const { x: xs, y: ys, groupEnd } = points;
  const n = xs.length;
  if (count > MATERIALISE_LIMIT) {
    const rng = samplingRng(n);
    const size = Math.min(count, 2 * Math.ceil(count ** (2 / 3)));
    const sample = new Float64Array(size);
    let got = 0;
    for (let tries = 0; got < size && tries < 50 * size; tries++) {
      const i = Math.floor(rng() * n);
      const j = Math.floor(rng() * n);
      // Negating both differences is exact, so either orientation gives scipy's slope.
      const dx = xs[j]! - xs[i]!;
      if (dx !== 0) sample[got++] = (ys[j]! - ys[i]!) / dx;
    }
    if (got === size) {
      const brackets = bracketsFor(sample, count, groups.flat());
      // One pass per bracket (nearby ranks share one, so usually a single pass): recomputing a
      // division is cheaper than a data-dependent branch per bracket, and counting with
      // arithmetic avoids a misprediction on every other slope.
      const nb = brackets.length;
      const lows = Float64Array.from(brackets, b => b.low);
      const highs = Float64Array.from(brackets, b => b.high);
      const below = new Float64Array(nb);
      for (let i = 0; i < n; i++) {
        const xi = xs[i]!;
        const yi = ys[i]!;
        for (let b = 0; b < nb; b++) {
          const low = lows[b]!;
          const high = highs[b]!;
          const inside = brackets[b]!.inside;
          let under = 0;
          for (let j = groupEnd[i]!; j < n; j++) {
            const v = (ys[j]! - yi) / (xs[j]! - xi);
            under += +(v < low);
            if (v >= low && v <= high) inside.push(v);
          }
          below[b]! += under;
        }
      }
      brackets.forEach((b, i) => (b.below = below[i]!));
      const values = resolveBrackets(brackets);
      if (values) return groups.map(g => g.map(r => values.get(r)!));
    }
  }
  const slopes = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const xi = xs[i]!;
    const yi = ys[i]!;
    for (let j = groupEnd[i]!; j < n; j++) slopes[k++] = (ys[j]! - yi) / (xs[j]! - xi);
  }
  const flat = selectMany(slopes, groups.flat());
  let at = 0;
  return groups.map(g => flat.slice(at, (at += g.length)));
}

/** numpy.round: halves go to the even neighbour (JS Math.round sends them up). */
export function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
