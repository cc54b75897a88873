import { studentTQuantile, studentTTwoSided } from './distributions.js';
import { confidenceLevel, finiteArray, sameLength, type NumericArray } from './errors.js';
import { meanAndSs } from './moments.js';

export interface TTestResult {
  /** t statistic (difference / standard error). */
  t: number;
  /** Degrees of freedom (Welch-Satterthwaite for the Welch test). */
  df: number;
  /** Two-sided p-value. */
  pValue: number;
  /** mean(a - b) for the paired test; mean(a) - mean(b) for Welch. */
  meanDifference: number;
  /** Standard error of the difference. */
  standardError: number;
  /** Confidence interval of the mean difference: meanDifference -/+ t_{(1+level)/2, df} SE. */
  ciLow: number;
  ciHigh: number;
  level: number;
}

/** Mean and sample variance (n - 1). */
function meanVar(x: Float64Array): [number, number] {
  const [m, ss] = meanAndSs(x);
  return [m, ss / (x.length - 1)];
}

function finish(diff: number, se: number, df: number, level: number): TTestResult {
  // As scipy: a zero standard error gives t = +/-Infinity (p = 0) or NaN when the difference is 0 too.
  const t = diff / se;
  const crit = studentTQuantile(1 - (1 - level) / 2, df);
  return {
    t,
    df,
    pValue: studentTTwoSided(t, df),
    meanDifference: diff,
    standardError: se,
    // A zero standard error gives the point interval [diff, diff] (0 * crit), as scipy.
    ciLow: se === 0 ? diff : diff - crit * se,
    ciHigh: se === 0 ? diff : diff + crit * se,
    level,
  };
}

/**
 * Paired t-test on a - b (as scipy.stats.ttest_rel, two-sided, and its `confidence_interval`):
 * t = mean(d) / (sd(d) / sqrt(n)), df = n - 1. Needs n >= 2 pairs of finite numbers.
 */
export function pairedTTest(a: NumericArray, b: NumericArray, options: { level?: number } = {}): TTestResult {
  const xa = finiteArray('a', a, 2);
  const xb = finiteArray('b', b, 2);
  sameLength('a', xa, 'b', xb);
  const level = confidenceLevel('level', options.level ?? 0.95);
  const d = new Float64Array(xa.length);
  for (let i = 0; i < d.length; i++) d[i] = xa[i]! - xb[i]!;
  const [m, v] = meanVar(d);
  return finish(m, Math.sqrt(v / d.length), d.length - 1, level);
}

/**
 * Welch's unequal-variance t-test (as scipy.stats.ttest_ind(equal_var=False), two-sided, and its
 * `confidence_interval`): SE^2 = s_a^2/n_a + s_b^2/n_b, Welch-Satterthwaite
 * df = SE^4 / ((s_a^2/n_a)^2/(n_a-1) + (s_b^2/n_b)^2/(n_b-1)). Each sample needs >= 2 finite
 * values; when both variances are 0 the df is 0/0, which scipy (and so this) replaces by 1.
 */
export function welchTTest(a: NumericArray, b: NumericArray, options: { level?: number } = {}): TTestResult {
  const xa = finiteArray('a', a, 2);
  const xb = finiteArray('b', b, 2);
  const level = confidenceLevel('level', options.level ?? 0.95);
  const [ma, va] = meanVar(xa);
  const [mb, vb] = meanVar(xb);
  const qa = va / xa.length;
  const qb = vb / xb.length;
  const se2 = qa + qb;
  const welchDf = (se2 * se2) / ((qa * qa) / (xa.length - 1) + (qb * qb) / (xb.length - 1));
  // Both samples constant: 0/0. scipy (ttest_ind, equal_var=False) then uses df = 1.
  const df = Number.isNaN(welchDf) ? 1 : welchDf;
  return finish(ma - mb, Math.sqrt(se2), df, level);
}
