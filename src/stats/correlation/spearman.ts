import { pairedSamples } from './errors.js';
import { averageRanks } from './ranks.js';
import { correlationAbout, tOf } from './pearson.js';
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
  const rx = averageRanks(xs);
  const ry = averageRanks(ys);
  // Average ranks always sum to n(n+1)/2, so the mean is exact.
  const rho = correlationAbout(rx, ry, (n + 1) / 2, (n + 1) / 2);
  if (Number.isNaN(rho)) return { rho, pValue: NaN, n };
  return { rho, pValue: studentTTwoSidedP(tOf(rho, n - 2), n - 2), n };
}
