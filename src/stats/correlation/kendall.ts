import { pairedSamples } from './errors.js';
import { kendallExactTwoSidedP } from './kendall-exact.js';
import { denseRanks, radixSort, sumOverTies } from './ranks.js';
import { normalSf } from './special.js';

/**
 * Kendall's tau with its pair counts. Every pair of observations is exactly one of: concordant,
 * discordant, tied only in x, tied only in y, or tied in both.
 */
export interface KendallResult {
  /** tau-b (kendallTauB) or tau-c (kendallTauC); NaN when every pair is tied in x or in y. */
  tau: number;
  /** Two-sided p-value as scipy.stats.kendalltau(method='auto'); NaN when tau is NaN. */
  pValue: number;
  concordant: number;
  discordant: number;
  /** Pairs tied in x but not in y. */
  tiesX: number;
  /** Pairs tied in y but not in x. */
  tiesY: number;
  /** Pairs tied in both x and y. */
  tiesXY: number;
  n: number;
}

/**
 * Kendall's tau-b, (P - Q) / sqrt((P + Q + Tx)(P + Q + Ty)), in O(n log n) after Knight (1966):
 * sort by x then y, count ties from the sorted runs, count discordant pairs as inversions of
 * the y ranks (see countInversions).
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): KendallResult {
  return kendall(x, y, 'b', 'kendallTauB');
}

/** Stuart's tau-c, 2 (P - Q) / (n^2 (m - 1) / m) with m = min(#distinct x, #distinct y); scipy variant='c'. */
export function kendallTauC(x: ArrayLike<number>, y: ArrayLike<number>): KendallResult {
  return kendall(x, y, 'c', 'kendallTauC');
}

function kendall(x: ArrayLike<number>, y: ArrayLike<number>, variant: 'b' | 'c', fn: string): KendallResult {
  const [xs, ys] = pairedSamples(x, y, fn, 2);
  const n = xs.length;
  const ry = denseRanks(ys);
  // Sort by (x, y) in one stable radix sort fed in y order; x ties and joint ties are then runs
  // of equal adjacent keys.
  const { order, keyHigh, keyLow } = radixSort(xs, ry.order);
  const seq = new Uint32Array(n);
  const xCountsAll = new Uint32Array(n);
  let xGroups = 0;
  let tiesXYTotal = 0;
  let run = 1;
  for (let p = 0; p < n; p++) {
    const r = ry.rank[order[p]!]!;
    seq[p] = r;
    const sameX = p > 0 && keyHigh[p] === keyHigh[p - 1] && keyLow[p] === keyLow[p - 1];
    if (!sameX) xGroups++;
    xCountsAll[xGroups - 1]!++;
    if (sameX && r === seq[p - 1]) run++;
    else {
      tiesXYTotal += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  tiesXYTotal += (run * (run - 1)) / 2;
  const xCounts = xCountsAll.subarray(0, xGroups);
  // Within an x-group y is ascending, so strict inversions of the y codes are exactly the discordant pairs.
  const discordant = countInversions(seq, ry.counts.length);

  const total = (n * (n - 1)) / 2;
  const xtie = sumOverTies(xCounts, t => (t * (t - 1)) / 2);
  const ytie = sumOverTies(ry.counts, t => (t * (t - 1)) / 2);
  const counts = {
    concordant: total - xtie - ytie + tiesXYTotal - discordant,
    discordant,
    tiesX: xtie - tiesXYTotal,
    tiesY: ytie - tiesXYTotal,
    tiesXY: tiesXYTotal,
    n,
  };
  if (xtie === total || ytie === total) return { tau: NaN, pValue: NaN, ...counts };

  const sMinusD = total - xtie - ytie + tiesXYTotal - 2 * discordant;
  let tau: number;
  if (variant === 'b') tau = sMinusD / Math.sqrt(total - xtie) / Math.sqrt(total - ytie);
  else {
    const m = Math.min(xCounts.length, ry.counts.length);
    tau = (2 * sMinusD) / ((n * n * (m - 1)) / m);
  }
  tau = Math.min(1, Math.max(-1, tau));

  let pValue: number;
  if (xtie === 0 && ytie === 0 && (n <= 33 || Math.min(discordant, total - discordant) <= 1)) {
    pValue = kendallExactTwoSidedP(n, total - discordant);
  } else {
    // Normal approximation with the tie-corrected variance of S (Kendall 1970, eq. 4.3).
    const x0 = sumOverTies(xCounts, t => t * (t - 1) * (t - 2));
    const y0 = sumOverTies(ry.counts, t => t * (t - 1) * (t - 2));
    const x1 = sumOverTies(xCounts, t => t * (t - 1) * (2 * t + 5));
    const y1 = sumOverTies(ry.counts, t => t * (t - 1) * (2 * t + 5));
    const m = n * (n - 1);
    const variance = (m * (2 * n + 5) - x1 - y1) / 18 + (2 * xtie * ytie) / m + (x0 * y0) / (9 * m * (n - 2));
    pValue = 2 * normalSf(Math.abs(sMinusD / Math.sqrt(variance)));
  }
  return { tau, pValue, ...counts };
}

/**
 * Number of pairs p < q with a[p] > a[q] (ties not counted), for codes 0 <= a[i] < m: a Fenwick
 * tree (Fenwick 1994) of how many earlier codes are <= each one, as scipy's _kendall_dis does.
 * Measured ~2x faster than counting merge-sort swaps (Knight 1966) at n = 1e6, on both random
 * and nearly sorted codes. Counts stay exact as doubles up to n ~ 1.3e8.
 */
export function countInversions(a: Uint32Array, m: number): number {
  const tree = new Uint32Array(m + 1);
  let inversions = 0;
  for (let p = 0; p < a.length; p++) {
    const r = a[p]! + 1;
    let notAbove = 0;
    for (let k = r; k > 0; k -= k & -k) notAbove += tree[k]!;
    inversions += p - notAbove;
    for (let k = r; k <= m; k += k & -k) tree[k]!++;
  }
  return inversions;
}
