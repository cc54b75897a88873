import type { CentredProducts } from './dcor-naive.js';
import { denseRanks } from './ranks.js';

/**
 * O(n log n) centred products for univariate x and y, after Huo & Szekely (2016): every dcov^2
 * form is a combination of
 *   S1 = sum_{i != j} |x_i - x_j| |y_i - y_j|,  S2 = sum_i a_i. b_i.,  S3 = a.. b..
 * The row sums a_i. come from prefix sums over the sorted values. For S1, walk the points in
 * x order: for a later point j, (x_j - x_i) |y_j - y_i| = s (x_j - x_i)(y_j - y_i) with
 * s = sign(y_j - y_i), so the sum over earlier i only needs the counts and the sums of x, y and
 * xy over earlier points with y below (s = +1) and above (s = -1) y_j. A Fenwick tree over the
 * y ranks (Fenwick 1994) holds those four sums, giving O(log n) per point.
 */
export function centredProductsFast(xIn: Float64Array, yIn: Float64Array, uCentred: boolean): CentredProducts {
  const n = xIn.length;
  const rx = denseRanks(xIn);
  const ry = denseRanks(yIn);
  const orderX = rx.order;
  const orderY = ry.order;
  // Distances are shift-invariant; shifting by a data value keeps the expanded products small
  // and a constant sample exactly zero.
  const x = shifted(xIn, xIn[orderX[n >> 1]!]!);
  const y = shifted(yIn, yIn[orderY[n >> 1]!]!);
  const rowX = rowSumsSorted(x, orderX);
  const rowY = rowSumsSorted(y, orderY);

  const m = ry.counts.length;
  // Fenwick tree, 4 channels per node: count, sum x, sum y, sum xy.
  const tree = new Float64Array(4 * (m + 1));
  let totC = 0;
  let totX = 0;
  let totY = 0;
  let totXY = 0;
  let half = 0;
  for (let p = 0; p < n; p++) {
    const j = orderX[p]!;
    const xj = x[j]!;
    const yj = y[j]!;
    const r = ry.rank[j]!;
    // Sums over earlier points with y rank < r (below) and <= r (below or tied); the rest are above.
    let cL = 0, xL = 0, yL = 0, xyL = 0;
    for (let k = r; k > 0; k -= k & -k) {
      const o = 4 * k;
      cL += tree[o]!; xL += tree[o + 1]!; yL += tree[o + 2]!; xyL += tree[o + 3]!;
    }
    let cE = 0, xE = 0, yE = 0, xyE = 0;
    for (let k = r + 1; k > 0; k -= k & -k) {
      const o = 4 * k;
      cE += tree[o]!; xE += tree[o + 1]!; yE += tree[o + 2]!; xyE += tree[o + 3]!;
    }
    const cG = totC - cE, xG = totX - xE, yG = totY - yE, xyG = totXY - xyE;
    half += xj * yj * (cL - cG) - xj * (yL - yG) - yj * (xL - xG) + (xyL - xyG);
    const xy = xj * yj;
    for (let k = r + 1; k <= m; k += k & -k) {
      const o = 4 * k;
      tree[o]! += 1; tree[o + 1]! += xj; tree[o + 2]! += yj; tree[o + 3]! += xy;
    }
    totC += 1; totX += xj; totY += yj; totXY += xy;
  }

  const rowScale = uCentred ? 1 / (n - 2) : 1 / n;
  const totScale = uCentred ? 1 / ((n - 1) * (n - 2)) : 1 / (n * n);
  let s2 = 0, s2x = 0, s2y = 0, aDot = 0, bDot = 0;
  for (let i = 0; i < n; i++) {
    s2 += rowX[i]! * rowY[i]!;
    s2x += rowX[i]! * rowX[i]!;
    s2y += rowY[i]! * rowY[i]!;
    aDot += rowX[i]!;
    bDot += rowY[i]!;
  }
  return {
    ab: 2 * half - 2 * rowScale * s2 + totScale * aDot * bDot,
    aa: sumSquaredDistances(x) - 2 * rowScale * s2x + totScale * aDot * aDot,
    bb: sumSquaredDistances(y) - 2 * rowScale * s2y + totScale * bDot * bDot,
  };
}

function shifted(v: Float64Array, by: number): Float64Array {
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! - by;
  return out;
}

/** a_i. = sum_j |v_i - v_j| from prefix sums along the sorted order. */
function rowSumsSorted(v: Float64Array, order: Uint32Array): Float64Array {
  const n = v.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += v[i]!;
  const out = new Float64Array(n);
  let before = 0;
  for (let p = 0; p < n; p++) {
    const i = order[p]!;
    const vi = v[i]!;
    const after = total - before - vi;
    out[i] = vi * p - before + after - vi * (n - 1 - p);
    before += vi;
  }
  return out;
}

/** sum_{i,j} (v_i - v_j)^2 = 2n sum_i (v_i - mean)^2. */
function sumSquaredDistances(v: Float64Array): number {
  const n = v.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += v[i]!;
  mean /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (v[i]! - mean) * (v[i]! - mean);
  return 2 * n * ss;
}
