import { betaInc, betaIncInvPair, erfc } from './special.js';

/** Standard normal CDF Phi(z) (as scipy.special.ndtr), relative precision kept in the lower tail. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/** Upper tail 1 - Phi(z), precise for large z. */
export function normalSf(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

// Acklam's rational approximation (relative error < 1.2e-9), refined below to full precision.
const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];

/**
 * Standard normal quantile Phi^{-1}(p) (as scipy.special.ndtri): Acklam's approximation followed by
 * two Halley steps on the erfc-based CDF. p = 0 -> -Infinity, p = 1 -> +Infinity, outside -> NaN.
 * Upper half is computed as -Phi^{-1}(1 - p) (exact subtraction for p >= 1/2).
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p > 0.5) return -normalQuantile(1 - p);
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) /
      ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!) * q) /
      (((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1);
  }
  for (let k = 0; k < 2; k++) {
    const e = normalCdf(x) - p;
    const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
    x = x - u / (1 + (x * u) / 2);
  }
  return x;
}

/** Student-t CDF P(T <= t) with `df` > 0 degrees of freedom (as scipy.stats.t.cdf). */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  const t2 = t * t;
  const tail = 0.5 * betaInc(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
  return t > 0 ? 1 - tail : tail;
}

/** Two-sided tail P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2), without cancellation. */
export function studentTTwoSided(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  const t2 = t * t;
  return betaInc(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
}

/** Student-t quantile (as scipy.stats.t.ppf), via the inverse incomplete beta. */
export function studentTQuantile(p: number, df: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1 || !(df > 0)) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  const tail = p < 0.5 ? 2 * p : 2 * (1 - p);
  // P(|T| > t) = tail  <=>  I_x(df/2, 1/2) = tail with x = df/(df+t^2).
  const [x, y] = betaIncInvPair(df / 2, 0.5, tail);
  const t = Math.sqrt((df * y) / x);
  return p < 0.5 ? -t : t;
}

/** F distribution CDF with (d1, d2) degrees of freedom (as scipy.stats.f.cdf). */
export function fCdf(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0) || !(d2 > 0)) return Number.NaN;
  if (f <= 0) return 0;
  if (f === Number.POSITIVE_INFINITY) return 1;
  return betaInc(d1 / 2, d2 / 2, (d1 * f) / (d1 * f + d2), d2 / (d1 * f + d2));
}

/** F distribution upper tail P(F > f) (as scipy.stats.f.sf), precise for large f. */
export function fSf(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0) || !(d2 > 0)) return Number.NaN;
  if (f <= 0) return 1;
  if (f === Number.POSITIVE_INFINITY) return 0;
  return betaInc(d2 / 2, d1 / 2, d2 / (d1 * f + d2), (d1 * f) / (d1 * f + d2));
}

/** F distribution quantile (as scipy.stats.f.ppf). */
export function fQuantile(p: number, d1: number, d2: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1 || !(d1 > 0) || !(d2 > 0)) return Number.NaN;
  if (p === 0) return 0;
  if (p === 1) return Number.POSITIVE_INFINITY;
  const [x, y] = betaIncInvPair(d1 / 2, d2 / 2, p);
  return (d2 * x) / (d1 * y);
}
