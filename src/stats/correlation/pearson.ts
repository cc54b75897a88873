import { pairedSamples } from './errors.js';
import { studentTTwoSidedP } from './special.js';

export interface PearsonResult {
  /** Pearson's r; NaN when x or y is constant (scipy warns and returns NaN). */
  r: number;
  /**
   * Two-sided p-value from t = r sqrt((n - 2) / (1 - r^2)) on n - 2 degrees of freedom, as
   * scipy.stats.pearsonr; 1 for n = 2 (scipy's convention: two points always fit a line).
   */
  pValue: number;
  n: number;
}

/** Pearson's product-moment correlation, as scipy.stats.pearsonr (two-sided). Needs n >= 2. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): PearsonResult {
  const [xs, ys] = pairedSamples(x, y, 'pearson', 2);
  const n = xs.length;
  const r = correlationAbout(xs, ys, mean(xs), mean(ys));
  if (Number.isNaN(r)) return { r, pValue: NaN, n };
  if (n === 2) return { r, pValue: 1, n };
  return { r, pValue: studentTTwoSidedP(tOf(r, n - 2), n - 2), n };
}

/** t of a correlation on `dof` degrees of freedom, clipped as scipy: rounding can make (1 + r)(1 - r) < 0. */
export function tOf(r: number, dof: number): number {
  return r * Math.sqrt(Math.max(0, dof / ((r + 1) * (1 - r))));
}

/**
 * Correlation of x and y about the given means, clipped to [-1, 1]; exactly +/-1 when y is an
 * exact linear image of x (as scipy's result), since the quotient can land one ulp short of it.
 * NaN when either is constant.
 */
export function correlationAbout(x: Float64Array, y: Float64Array, mx: number, my: number): number {
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  if (Math.abs(Math.abs(sxy) - Math.sqrt(sxx * syy)) <= 4 * Number.EPSILON * Math.abs(sxy)) return Math.sign(sxy);
  return Math.min(1, Math.max(-1, sxy / Math.sqrt(sxx) / Math.sqrt(syy)));
}

function mean(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]!;
  return s / v.length;
}
