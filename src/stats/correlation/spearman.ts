import { pairedSamples } from './errors.js';
import { averageRanks } from './ranks.js';
import { studentTTwoSidedP } from './special.js';

export interface SpearmanResult {
  /** Pearson correlation of the average ranks; NaN when x or y is constant (scipy warns and returns NaN). */
  rho: number;
  /**
   * Two-sided p-value from t = rho sqrt((n - 2) / (1 - rho^2)) on n - 2 degrees of freedom,
   * as scipy.stats.spearmanr. NaN when n = 2 (no degrees of freedom) or rho is NaN.
   */
  pValue: number;
  n: number;
}

/** Spearman's rank correlation with ties given average ranks, matching scipy.stats.spearmanr. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): SpearmanResult {
  const [xs, ys] = pairedSamples(x, y, 'spearman', 2);
  const n = xs.length;
  if (isConstant(xs) || isConstant(ys)) return { rho: NaN, pValue: NaN, n };
  const rx = averageRanks(xs);
  const ry = averageRanks(ys);
  // Average ranks always sum to n(n+1)/2, so the mean is exact.
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  let rho = Math.min(1, Math.max(-1, sxy / Math.sqrt(sxx) / Math.sqrt(syy)));
  // Identical (or exactly reversed) rankings are rho = +/-1 exactly, as scipy's corrcoef gives, so
  // p = 0; the quotient above can land one ulp short of it.
  if (Math.abs(Math.abs(sxy) - Math.sqrt(sxx * syy)) <= 4 * Number.EPSILON * Math.abs(sxy)) rho = Math.sign(sxy);
  const dof = n - 2;
  // Clip as scipy does: rounding can make (1 + rho)(1 - rho) slightly negative.
  const t = rho * Math.sqrt(Math.max(0, dof / ((rho + 1) * (1 - rho))));
  return { rho, pValue: studentTTwoSidedP(t, dof), n };
}

function isConstant(v: Float64Array): boolean {
  const first = v[0];
  for (let i = 1; i < v.length; i++) if (v[i] !== first) return false;
  return true;
}
