import { fQuantile, fSf } from '../inference/distributions.js';
import { StatsInputError, confidenceLevel } from '../inference/errors.js';

export type IccType = 'ICC1' | 'ICC2' | 'ICC3' | 'ICC1k' | 'ICC2k' | 'ICC3k';

export interface IccForm {
  /** pingouin's name. */
  type: IccType;
  /** Shrout & Fleiss' name: ICC(1,1), ICC(2,1), ICC(3,1), ICC(1,k), ICC(2,k), ICC(3,k). */
  shroutFleiss: string;
  description: string;
  icc: number;
  /** F statistic of the test ICC = 0, its degrees of freedom and upper-tail p-value. */
  f: number;
  df1: number;
  df2: number;
  pValue: number;
  ciLow: number;
  ciHigh: number;
}

export interface IccResult {
  forms: IccForm[];
  /** Lookup by pingouin type. */
  byType: Record<IccType, IccForm>;
  /** Subjects (targets) and raters (judges). */
  n: number;
  k: number;
  level: number;
  /** Mean squares: between subjects, within subjects, between raters, residual. */
  ms: { between: number; within: number; raters: number; error: number };
}

/**
 * The six Shrout & Fleiss (1979) intraclass correlations of a complete subjects x raters matrix,
 * with F tests and confidence intervals as pingouin.intraclass_corr (which follows R psych::ICC):
 * ICC1 = (MSB - MSW)/(MSB + (k-1) MSW); ICC2 = (MSB - MSE)/(MSB + (k-1) MSE + k (MSJ - MSE)/n);
 * ICC3 = (MSB - MSE)/(MSB + (k-1) MSE); the k forms are the Spearman-Brown averages.
 * F = MSB/MSW on (n-1, n(k-1)) df for ICC1/ICC1k, MSB/MSE on (n-1, (n-1)(k-1)) for the others.
 * Intervals: the exact F-based bounds for ICC1 and ICC3 and the Satterthwaite approximation for
 * ICC2 (Shrout & Fleiss 1979). pingouin fixes the level at 95% and displays intervals to 2 decimals;
 * here `level` is free and nothing is rounded. Needs n >= 2 subjects, k >= 2 raters and no missing
 * values (pingouin's nan_policy='omit' would drop incomplete subjects; we reject them instead).
 */
export function icc(matrix: ArrayLike<ArrayLike<number>>, options: { level?: number } = {}): IccResult {
  const level = confidenceLevel('level', options.level ?? 0.95);
  const x = readMatrix('matrix', matrix);
  const n = x.length;
  const k = x[0]!.length;
  const { rowMeans, colMeans, grand } = means(x);
  let ssTotal = 0;
  let ssError = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      ssTotal += (x[i]![j]! - grand) ** 2;
      ssError += (x[i]![j]! - rowMeans[i]! - colMeans[j]! + grand) ** 2;
    }
  }
  // Sums of squares at the level of rounding error are zero: constant data must give NaN (0/0),
  // not a ratio of two rounding errors.
  const tol = roundingFloor(x.flat(), n * k);
  const snap = (ss: number) => (ss <= tol ? 0 : ss);
  ssTotal = snap(ssTotal);
  ssError = snap(ssError);
  const ssB = snap(k * rowMeans.reduce((s, m) => s + (m - grand) ** 2, 0));
  const ssJ = snap(n * colMeans.reduce((s, m) => s + (m - grand) ** 2, 0));
  const ssW = snap(ssTotal - ssB);
  const msb = ssB / (n - 1);
  const msw = ssW / (n * (k - 1));
  const msj = ssJ / (k - 1);
  const mse = ssError / ((n - 1) * (k - 1));

  const icc1 = (msb - msw) / (msb + (k - 1) * msw);
  const icc2 = (msb - mse) / (msb + (k - 1) * mse + (k * (msj - mse)) / n);
  const icc3 = (msb - mse) / (msb + (k - 1) * mse);
  const icc1k = (msb - msw) / msb;
  const icc2k = (msb - mse) / (msb + (msj - mse) / n);
  const icc3k = (msb - mse) / msb;

  const a = 1 - level;
  const df1 = n - 1;
  const df1w = n * (k - 1);
  const df2e = (n - 1) * (k - 1);
  const f1 = msb / msw;
  const f3 = msb / mse;
  const q = (p: number, d1: number, d2: number) => fQuantile(1 - p / 2, d1, d2);
  const f1l = f1 / q(a, df1, df1w);
  const f1u = f1 * q(a, df1w, df1);
  const f3l = f3 / q(a, df1, df2e);
  const f3u = f3 * q(a, df2e, df1);
  // ICC2: Satterthwaite df for the denominator (Shrout & Fleiss 1979, eq. 9-12).
  const fj = msj / mse;
  const vn = df2e * (k * icc2 * fj + n * (1 + (k - 1) * icc2) - k * icc2) ** 2;
  const vd = df1 * k * k * icc2 * icc2 * fj * fj + (n * (1 + (k - 1) * icc2) - k * icc2) ** 2;
  const v = vn / vd;
  const fLow2 = q(a, df1, v);
  const fHigh2 = q(a, v, df1);
  // Shrout & Fleiss' bounds with numerator and denominator divided by the F quantile: the same
  // value, but finite when a tiny Satterthwaite df (n = 2) sends the quantile to Infinity.
  const c2 = k * msj + (k * n - k - n) * mse;
  const l2 = (n * (msb / fLow2 - mse)) / (c2 + (n * msb) / fLow2);
  const u2 = (n * (msb - mse / fHigh2)) / (c2 / fHigh2 + n * msb);
  const spearmanBrown = (r: number) => (r * k) / (1 + r * (k - 1));

  const p1 = fSf(f1, df1, df1w);
  const p3 = fSf(f3, df1, df2e);
  const forms: IccForm[] = [
    form('ICC1', 'ICC(1,1)', 'Single raters absolute', icc1, f1, df1, df1w, p1, (f1l - 1) / (f1l + k - 1), (f1u - 1) / (f1u + k - 1)),
    form('ICC2', 'ICC(2,1)', 'Single random raters', icc2, f3, df1, df2e, p3, l2, u2),
    form('ICC3', 'ICC(3,1)', 'Single fixed raters', icc3, f3, df1, df2e, p3, (f3l - 1) / (f3l + k - 1), (f3u - 1) / (f3u + k - 1)),
    form('ICC1k', 'ICC(1,k)', 'Average raters absolute', icc1k, f1, df1, df1w, p1, 1 - 1 / f1l, 1 - 1 / f1u),
    form('ICC2k', 'ICC(2,k)', 'Average random raters', icc2k, f3, df1, df2e, p3, spearmanBrown(l2), spearmanBrown(u2)),
    form('ICC3k', 'ICC(3,k)', 'Average fixed raters', icc3k, f3, df1, df2e, p3, 1 - 1 / f3l, 1 - 1 / f3u),
  ];
  return {
    forms,
    byType: Object.fromEntries(forms.map(f => [f.type, f])) as Record<IccType, IccForm>,
    n,
    k,
    level,
    ms: { between: msb, within: msw, raters: msj, error: mse },
  };
}

function form(
  type: IccType, shroutFleiss: string, description: string, value: number,
  f: number, df1: number, df2: number, pValue: number, ciLow: number, ciHigh: number,
): IccForm {
  return { type, shroutFleiss, description, icc: value, f, df1, df2, pValue, ciLow, ciHigh };
}

export interface CronbachAlphaResult {
  alpha: number;
  /** Feldt (1965) F-based interval, as pingouin.cronbach_alpha (which rounds it to 3 decimals). */
  ciLow: number;
  ciHigh: number;
  level: number;
  /** Subjects and items. */
  n: number;
  k: number;
}

/**
 * Cronbach's alpha of a complete subjects x items matrix (as pingouin.cronbach_alpha):
 * alpha = k/(k-1) (1 - sum of item variances / variance of the subject totals), variances with
 * ddof = 1; interval 1 - (1 - alpha) F_{1-a/2} and 1 - (1 - alpha) F_{a/2} on (n-1, (n-1)(k-1)) df
 * (Feldt, Woodruff & Salih 1987). Needs n >= 2 subjects and k >= 2 items; NaN when totals do not vary
 * (variation at the level of rounding error counts as none).
 */
export function cronbachAlpha(matrix: ArrayLike<ArrayLike<number>>, options: { level?: number } = {}): CronbachAlphaResult {
  const level = confidenceLevel('level', options.level ?? 0.95);
  const x = readMatrix('matrix', matrix);
  const n = x.length;
  const k = x[0]!.length;
  const variance = (v: number[]) => {
    const m = v.reduce((s, y) => s + y, 0) / v.length;
    const ss = v.reduce((s, y) => s + (y - m) ** 2, 0);
    // A variance made of rounding error is zero: constant totals give NaN, never alpha = 1.
    return (ss <= roundingFloor(v, v.length) ? 0 : ss) / (v.length - 1);
  };
  let itemVar = 0;
  for (let j = 0; j < k; j++) itemVar += variance(x.map(row => row[j]!));
  const totals = x.map(row => row.reduce((s, y) => s + y, 0));
  const alpha = (k / (k - 1)) * (1 - itemVar / variance(totals));
  const a = 1 - level;
  const df1 = n - 1;
  const df2 = df1 * (k - 1);
  return {
    alpha,
    ciLow: 1 - (1 - alpha) * fQuantile(1 - a / 2, df1, df2),
    ciHigh: 1 - (1 - alpha) * fQuantile(a / 2, df1, df2),
    level,
    n,
    k,
  };
}

function readMatrix(name: string, matrix: ArrayLike<ArrayLike<number>>): number[][] {
  if (!matrix || typeof matrix.length !== 'number') throw new StatsInputError(name, 'expected a rows x columns array of numbers');
  if (matrix.length < 2) throw new StatsInputError(name, `needs at least 2 rows (subjects), got ${matrix.length}`);
  const k = matrix[0]?.length ?? 0;
  if (k < 2) throw new StatsInputError(`${name}[0]`, `needs at least 2 columns, got ${k}`);
  return Array.from(matrix, (row, i) => {
    if (!row || row.length !== k) throw new StatsInputError(`${name}[${i}]`, `expected ${k} values (as row 0), got ${row?.length}`);
    return Array.from(row, (v, j) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new StatsInputError(`${name}[${i}][${j}]`, `expected a finite number, got ${String(v)}`);
      return v;
    });
  });
}

function means(x: number[][]): { rowMeans: number[]; colMeans: number[]; grand: number } {
  const n = x.length;
  const k = x[0]!.length;
  const rowMeans = x.map(r => r.reduce((s, v) => s + v, 0) / k);
  const colMeans = Array.from({ length: k }, (_, j) => x.reduce((s, r) => s + r[j]!, 0) / n);
  const grand = rowMeans.reduce((s, v) => s + v, 0) / n;
  return { rowMeans, colMeans, grand };
}

/**
 * The largest sum of squares of `count` deviations that can arise from rounding alone in data of
 * this magnitude (each deviation below 64 ulps of the largest value).
 */
function roundingFloor(values: ArrayLike<number>, count: number): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i]!));
  return count * (64 * Number.EPSILON * max) ** 2;
}
