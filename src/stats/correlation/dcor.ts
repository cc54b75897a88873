import { badOption, checkPairedLength } from './errors.js';
import { centredProductsFast } from './dcor-fast.js';
import { centredProductsNaive, type CentredProducts } from './dcor-naive.js';
import { toPointMatrix, type DistanceSample, type PointMatrix } from './dcor-sample.js';

export type { DistanceSample } from './dcor-sample.js';

export interface DistanceOptions {
  /**
   * true (default): unbiased U-statistics (U-centring, Szekely & Rizzo 2014), so dcor^2 is the
   * bias-corrected distance correlation, which can be negative. false: V-statistics (double
   * centring, Szekely, Rizzo & Bakirov 2007).
   */
  biasCorrected?: boolean;
  /**
   * 'naive': O(n^2) from the definitions, any dimension. 'fast': O(n log n), univariate only.
   * 'auto' (default): 'fast' when both samples are univariate and n > 1000.
   */
  method?: 'auto' | 'naive' | 'fast';
}

export interface DistanceCovarianceResult {
  /** Squared distance covariance. U-statistic forms are NaN for n < 4 (undefined: divides by n(n - 3)). */
  dcovSq: number;
  dvarXSq: number;
  dvarYSq: number;
  n: number;
  biasCorrected: boolean;
  /** The algorithm actually used. */
  method: 'naive' | 'fast';
}

export interface DistanceCorrelationResult extends DistanceCovarianceResult {
  /** Squared distance correlation: dcovSq / sqrt(dvarXSq dvarYSq), or 0 when that denominator is not positive. */
  dcorSq: number;
}

/** Auto switches to the sorted algorithm above this n (the naive one is exact-er and fast enough below). */
export const FAST_DCOR_THRESHOLD = 1000;

/** Squared distance correlation; bias-corrected by default (dcor.u_distance_correlation_sqr, energy::bcdcor). */
export function distanceCorrelationSq(
  x: DistanceSample,
  y: DistanceSample,
  options: DistanceOptions = {},
): DistanceCorrelationResult {
  return distanceStatistics(x, y, options, 'distanceCorrelationSq');
}

/** Squared distance covariance; the unbiased U-statistic by default, the V-statistic with biasCorrected: false. */
export function distanceCovarianceSq(
  x: DistanceSample,
  y: DistanceSample,
  options: DistanceOptions = {},
): DistanceCovarianceResult {
  const { dcorSq: _dcorSq, ...covariance } = distanceStatistics(x, y, options, 'distanceCovarianceSq');
  return covariance;
}

function distanceStatistics(
  xIn: DistanceSample,
  yIn: DistanceSample,
  options: DistanceOptions,
  fn: string,
): DistanceCorrelationResult {
  const { biasCorrected = true, method = 'auto' } = options;
  if (typeof biasCorrected !== 'boolean') {
    throw badOption(fn, 'biasCorrected', `biasCorrected must be true or false, got ${JSON.stringify(biasCorrected)}.`);
  }
  if (method !== 'auto' && method !== 'naive' && method !== 'fast') {
    throw badOption(fn, 'method', `method must be 'auto', 'naive' or 'fast', got ${JSON.stringify(method)}.`);
  }
  const x = toPointMatrix(xIn, 'x', fn);
  const y = toPointMatrix(yIn, 'y', fn);
  checkPairedLength(x.n, y.n, fn, 2);
  const univariate = x.d === 1 && y.d === 1;
  if (method === 'fast' && !univariate) {
    throw badOption(fn, 'method', `method 'fast' needs univariate x and y (got ${x.d} and ${y.d} columns); use 'naive' or 'auto'.`);
  }
  const used = method === 'fast' || (method === 'auto' && univariate && x.n > FAST_DCOR_THRESHOLD) ? 'fast' : 'naive';
  const n = x.n;
  if (biasCorrected && n < 4) {
    return { dcorSq: NaN, dcovSq: NaN, dvarXSq: NaN, dvarYSq: NaN, n, biasCorrected, method: used };
  }
  const products: CentredProducts =
    used === 'fast' ? centredProductsFast(x.data, y.data, biasCorrected) : centredProductsNaive(x, y, biasCorrected);
  const scale = biasCorrected ? n * (n - 3) : n * n;
  // A distance variance at the level of rounding error (against the sample's squared extent) is 0:
  // the exact value then is 0, and dCor must be 0 by the rule below, not a ratio of noise.
  const dvarXSq = snapToZero(products.aa / scale, squaredExtent(x));
  const dvarYSq = snapToZero(products.bb / scale, squaredExtent(y));
  const dcovSq = dvarXSq === 0 || dvarYSq === 0 ? 0 : products.ab / scale;
  const denominator = dvarXSq * dvarYSq;
  const dcorSq = denominator > 0 ? dcovSq / Math.sqrt(denominator) : 0;
  return { dcorSq, dcovSq, dvarXSq, dvarYSq, n, biasCorrected, method: used };
}

/** Sum over columns of (max - min)^2: the largest squared distance the sample can hold. */
function squaredExtent(p: PointMatrix): number {
  let total = 0;
  for (let j = 0; j < p.d; j++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < p.n; i++) {
      const v = p.data[i * p.d + j]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    total += (hi - lo) ** 2;
  }
  return total;
}

function snapToZero(value: number, extent: number): number {
  return Math.abs(value) <= 64 * Number.EPSILON * extent ? 0 : value;
}
