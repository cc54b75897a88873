import { createRng, randomSeed, type Xoshiro128 } from '../random/index.js';
import { normalCdf, normalQuantile } from './distributions.js';
import { StatsInputError, confidenceLevel, finiteArray, integerIn, sameLength, type NumericArray } from './errors.js';

export type BootstrapMethod = 'percentile' | 'bca';

/**
 * A statistic of one sample: `'mean'` (fast path, no allocation per resample) or a function of the
 * resampled values. The function receives a reused buffer: read it, do not keep it.
 */
export type SampleStatistic = 'mean' | ((sample: Float64Array) => number);

/** A statistic of two paired samples (same items), e.g. a difference of medians. */
export type PairedStatistic = 'meanDifference' | ((a: Float64Array, b: Float64Array) => number);

export interface BootstrapOptions {
  /** Number of bootstrap resamples B (default 2000). */
  resamples?: number;
  /** Two-sided confidence level (default 0.95). */
  level?: number;
  /** Seed of the PRNG (integer in [0, 2^53)); drawn from platform entropy and reported when absent. */
  seed?: number;
  /** `'percentile'` (default) or `'bca'` (bias-corrected and accelerated). */
  method?: BootstrapMethod;
  /** Also return the bootstrap distribution, in resample order. */
  keepDistribution?: boolean;
}

/** A reproducible interval: resamples and seed are given (and recorded by reports), the level may be. */
export type SeededIntervalOptions = Required<Pick<BootstrapOptions, 'resamples' | 'seed'>> & Pick<BootstrapOptions, 'level'>;

export interface BootstrapResult {
  /** The statistic on the original data. */
  estimate: number;
  low: number;
  high: number;
  level: number;
  resamples: number;
  method: BootstrapMethod;
  /** The seed used: rerunning with it reproduces the interval exactly. */
  seed: number;
  /** Number of observations (items) resampled. */
  n: number;
  /** Standard deviation (ddof = 1) of the bootstrap distribution. */
  standardError: number;
  /** BCa only: bias correction z0 and acceleration a. */
  bca?: { z0: number; acceleration: number };
  distribution?: Float64Array;
}

export interface PairedBootstrapResult extends Omit<BootstrapResult, 'estimate'> {
  /** The statistic (default mean of a - b) on the original pairs. */
  difference: number;
  /**
   * Share of resampled statistics <= 0: the one-sided bootstrap p-value for "a beats b"
   * (difference > 0). Near 0: a is reliably ahead; near 1: b is.
   */
  pOneSided: number;
}

/**
 * Bootstrap confidence interval of a statistic of one sample.
 *
 * Resampling: for each of B resamples, n indices `rng.nextInt(n)` in order (see
 * {@link Xoshiro128}), so a seed reproduces the same interval on every machine.
 * - `percentile`: the alpha and 1 - alpha quantiles of the bootstrap distribution, alpha =
 *   (1 - level) / 2, with linear interpolation between order statistics (numpy/scipy 'linear',
 *   Hyndman-Fan type 7: position (B - 1) q).
 * - `bca`: Efron & Tibshirani (1993) 14.3; z0 = Phi^{-1}((#{theta* < theta} + #{theta* <= theta}) / 2B),
 *   acceleration from the leave-one-out jackknife a = sum d^3 / (6 (sum d^2)^{3/2}),
 *   d_i = mean(theta_(.)) - theta_(i); quantile levels Phi(z0 + (z0 + z)/(1 - a (z0 + z))).
 *   This is scipy.stats.bootstrap(method='BCa') applied to the same bootstrap distribution
 *   (checked against scipy's own `_bca_interval` in the fixtures).
 * Edge cases as scipy: a degenerate distribution (all jackknife values equal, or every resample
 * below the estimate) gives NaN bounds under BCa; the percentile interval is then the constant.
 * Requires n >= 2 finite values and B >= 2.
 */
export function bootstrapCI(data: NumericArray, statistic: SampleStatistic = 'mean', options: BootstrapOptions = {}): BootstrapResult {
  const x = finiteArray('data', data, 2);
  const n = x.length;
  const stat = checkStatistic(statistic);
  return run(n, stat === 'mean' ? meanSampler(x) : functionSampler(stat, x), options);
}

/**
 * Paired bootstrap for two systems scored on the same items: items are resampled jointly, so the
 * interval reflects item-to-item covariance. With the default statistic (mean of a - b) the result
 * equals `bootstrapCI(a - b, 'mean')` with the same seed. Same methods and conventions as
 * {@link bootstrapCI}; BCa's jackknife leaves out one item from both arrays.
 */
export function pairedBootstrap(
  a: NumericArray,
  b: NumericArray,
  options: BootstrapOptions & { statistic?: PairedStatistic } = {},
): PairedBootstrapResult {
  const xa = finiteArray('a', a, 2);
  const xb = finiteArray('b', b, 2);
  sameLength('a', xa, 'b', xb);
  const statistic = options.statistic ?? 'meanDifference';
  let parts: Sampler;
  if (statistic === 'meanDifference') {
    const d = new Float64Array(xa.length);
    for (let i = 0; i < d.length; i++) d[i] = xa[i]! - xb[i]!;
    parts = meanSampler(d);
  } else if (typeof statistic === 'function') {
    parts = pairedSampler(statistic, xa, xb);
  } else {
    throw new StatsInputError('statistic', `must be 'meanDifference' or a function, got ${String(statistic)}`);
  }
  const res = run(xa.length, parts, { ...options, keepDistribution: true });
  const dist = res.distribution!;
  let atOrBelow = 0;
  for (let i = 0; i < dist.length; i++) if (dist[i]! <= 0) atOrBelow++;
  const { estimate, distribution, ...rest } = res;
  return {
    ...rest,
    difference: estimate,
    pOneSided: atOrBelow / dist.length,
    ...(options.keepDistribution ? { distribution } : {}),
  };
}

interface Sampler {
  estimate: number;
  /** Statistic of the resample given by `idx`. */
  sampler: (idx: Uint32Array) => number;
  /** The same statistic drawn straight from the generator (the same stream and value, no index buffer). */
  direct?: (rng: Xoshiro128) => number;
  /** Leave-one-out statistics. */
  jackknife: () => Float64Array;
}

function checkStatistic(statistic: SampleStatistic): SampleStatistic {
  if (statistic !== 'mean' && typeof statistic !== 'function') {
    throw new StatsInputError('statistic', `must be 'mean' or a function, got ${String(statistic)}`);
  }
  return statistic;
}

function meanSampler(x: Float64Array): Sampler {
  const n = x.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += x[i]!;
  return {
    estimate: total / n,
    sampler: idx => {
      let s = 0;
      for (let i = 0; i < n; i++) s += x[idx[i]!]!;
      return s / n;
    },
    direct: rng => rng.sumOfDraws(x) / n,
    jackknife: () => {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = (total - x[i]!) / (n - 1);
      return out;
    },
  };
}

function functionSampler(stat: (s: Float64Array) => number, x: Float64Array): Sampler {
  const n = x.length;
  const buf = new Float64Array(n);
  return {
    estimate: checked(stat(x.slice())),
    sampler: idx => {
      for (let i = 0; i < n; i++) buf[i] = x[idx[i]!]!;
      return checked(stat(buf));
    },
    jackknife: () => {
      const out = new Float64Array(n);
      const loo = new Float64Array(n - 1);
      for (let i = 0; i < n; i++) {
        loo.set(x.subarray(0, i), 0);
        loo.set(x.subarray(i + 1), i);
        out[i] = checked(stat(loo));
      }
      return out;
    },
  };
}

function pairedSampler(stat: (a: Float64Array, b: Float64Array) => number, xa: Float64Array, xb: Float64Array): Sampler {
  const n = xa.length;
  const ba = new Float64Array(n);
  const bb = new Float64Array(n);
  return {
    estimate: checked(stat(xa.slice(), xb.slice())),
    sampler: idx => {
      for (let i = 0; i < n; i++) {
        ba[i] = xa[idx[i]!]!;
        bb[i] = xb[idx[i]!]!;
      }
      return checked(stat(ba, bb));
    },
    jackknife: () => {
      const out = new Float64Array(n);
      const la = new Float64Array(n - 1);
      const lb = new Float64Array(n - 1);
      for (let i = 0; i < n; i++) {
        la.set(xa.subarray(0, i), 0);
        la.set(xa.subarray(i + 1), i);
        lb.set(xb.subarray(0, i), 0);
        lb.set(xb.subarray(i + 1), i);
        out[i] = checked(stat(la, lb));
      }
      return out;
    },
  };
}

function checked(v: number): number {
  if (typeof v !== 'number' || Number.isNaN(v)) {
    throw new StatsInputError('statistic', `returned ${String(v)}; it must return a number (not NaN) for every resample`);
  }
  return v;
}

function run(n: number, { estimate, sampler, direct, jackknife }: Sampler, options: BootstrapOptions): BootstrapResult {
  const B = integerIn('resamples', options.resamples ?? 2000, 2);
  const level = confidenceLevel('level', options.level ?? 0.95);
  const method = options.method ?? 'percentile';
  if (method !== 'percentile' && method !== 'bca') {
    throw new StatsInputError('method', `must be 'percentile' or 'bca', got ${String(method)}`);
  }
  const seed = options.seed ?? randomSeed();
  const rng = createRng(seed);
  const theta = new Float64Array(B);
  if (direct) {
    for (let b = 0; b < B; b++) theta[b] = direct(rng);
  } else {
    const idx = new Uint32Array(n);
    for (let b = 0; b < B; b++) theta[b] = sampler(rng.fillInts(idx, n));
  }

  const sorted = theta.slice().sort();
  const alpha = (1 - level) / 2;
  let qLow = alpha;
  let qHigh = 1 - alpha;
  let bca: BootstrapResult['bca'];
  if (method === 'bca') {
    let below = 0;
    let atOrBelow = 0;
    for (let b = 0; b < B; b++) {
      if (theta[b]! < estimate) below++;
      if (theta[b]! <= estimate) atOrBelow++;
    }
    const z0 = normalQuantile((below + atOrBelow) / (2 * B));
    const jack = jackknife();
    let jm = 0;
    for (let i = 0; i < jack.length; i++) jm += jack[i]!;
    jm /= jack.length;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < jack.length; i++) {
      const d = jm - jack[i]!;
      s2 += d * d;
      s3 += d * d * d;
    }
    const acceleration = s3 / (6 * Math.pow(s2, 1.5));
    const z = normalQuantile(alpha);
    const shifted = (zz: number): number => normalCdf(z0 + (z0 + zz) / (1 - acceleration * (z0 + zz)));
    qLow = shifted(z);
    qHigh = shifted(-z);
    bca = { z0, acceleration };
  }
  let mean = 0;
  for (let b = 0; b < B; b++) mean += theta[b]!;
  mean /= B;
  let ss = 0;
  for (let b = 0; b < B; b++) ss += (theta[b]! - mean) ** 2;
  return {
    estimate,
    low: quantileSorted(sorted, qLow),
    high: quantileSorted(sorted, qHigh),
    level,
    resamples: B,
    method,
    seed,
    n,
    standardError: Math.sqrt(ss / (B - 1)),
    ...(bca ? { bca } : {}),
    ...(options.keepDistribution ? { distribution: theta } : {}),
  };
}

/**
 * Quantile q of ascending `sorted` with linear interpolation between order statistics (numpy
 * 'linear', Hyndman & Fan type 7): h = (m - 1) q, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * NaN q gives NaN.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (Number.isNaN(q)) return Number.NaN;
  const m = sorted.length;
  const h = (m - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(h);
  const frac = h - lo;
  const a = sorted[lo]!;
  if (frac === 0 || lo + 1 >= m) return a;
  return a + frac * (sorted[lo + 1]! - a);
}
