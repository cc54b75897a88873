import { denseRanks } from './ranks.js';

/**
 * Points sorted by x, with each point's tie group of x as a contiguous range. Pairwise-slope
 * loops can then skip the pairs with equal x by their bounds instead of testing every pair
 * (a data-dependent branch that costs more than the division it guards).
 */
export interface SortedByX {
  x: Float64Array;
  y: Float64Array;
  /** Index of the first point whose x equals x[i]. */
  groupStart: Uint32Array;
  /** One past the last point whose x equals x[i]. */
  groupEnd: Uint32Array;
  /** Tie-group sizes of x, ascending by x. */
  xCounts: Uint32Array;
}

export function sortByX(xs: Float64Array, ys: Float64Array): SortedByX {
  const n = xs.length;
  const { order, counts, rank } = denseRanks(xs);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const groupStart = new Uint32Array(n);
  const groupEnd = new Uint32Array(n);
  const starts = new Uint32Array(counts.length);
  for (let k = 1; k < counts.length; k++) starts[k] = starts[k - 1]! + counts[k - 1]!;
  for (let p = 0; p < n; p++) {
    const i = order[p]!;
    const k = rank[i]!;
    x[p] = xs[i]!;
    y[p] = ys[i]!;
    groupStart[p] = starts[k]!;
    groupEnd[p] = starts[k]! + counts[k]!;
  }
  return { x, y, groupStart, groupEnd, xCounts: counts };
}
