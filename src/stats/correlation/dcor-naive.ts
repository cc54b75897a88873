import type { PointMatrix } from './dcor-sample.js';

/** The three sums every dcov^2 form is built from: <A,B>, <A,A>, <B,B> of the centred distance matrices. */
export interface CentredProducts {
  ab: number;
  aa: number;
  bb: number;
}

/**
 * Direct O(n^2) evaluation from the definitions (Szekely & Rizzo 2014): U-centring
 * A~_ij = a_ij - a_i./(n-2) - a_.j/(n-2) + a_../((n-1)(n-2)) with a zero diagonal, summed over
 * i != j; or double centring A_ij = a_ij - mean_i - mean_j + mean, summed over all cells.
 * Distances are recomputed rather than stored, so memory stays O(n) for any n.
 * Works in any dimension (Euclidean distance).
 */
export function centredProductsNaive(x: PointMatrix, y: PointMatrix, uCentred: boolean): CentredProducts {
  const n = x.n;
  const rowX = rowSums(x);
  const rowY = rowSums(y);
  const totX = sum(rowX);
  const totY = sum(rowY);
  const [rowScale, totScale] = uCentred ? [1 / (n - 2), 1 / ((n - 1) * (n - 2))] : [1 / n, 1 / (n * n)];
  const cx = totX * totScale;
  const cy = totY * totScale;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const ax = rowX[i]! * rowScale;
    const ay = rowY[i]! * rowScale;
    let rab = 0;
    let raa = 0;
    let rbb = 0;
    for (let j = 0; j < n; j++) {
      if (uCentred && i === j) continue;
      const A = distance(x, i, j) - ax - rowX[j]! * rowScale + cx;
      const B = distance(y, i, j) - ay - rowY[j]! * rowScale + cy;
      rab += A * B;
      raa += A * A;
      rbb += B * B;
    }
    ab += rab;
    aa += raa;
    bb += rbb;
  }
  return { ab, aa, bb };
}

function distance(m: PointMatrix, i: number, j: number): number {
  const { d, data } = m;
  if (d === 1) return Math.abs(data[i]! - data[j]!);
  let s = 0;
  for (let k = 0; k < d; k++) {
    const diff = data[i * d + k]! - data[j * d + k]!;
    s += diff * diff;
  }
  return Math.sqrt(s);
}

function rowSums(m: PointMatrix): Float64Array {
  const out = new Float64Array(m.n);
  for (let i = 0; i < m.n; i++) {
    let s = 0;
    for (let j = 0; j < m.n; j++) s += distance(m, i, j);
    out[i] = s;
  }
  return out;
}

function sum(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]!;
  return s;
}
