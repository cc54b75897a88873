import { createRng, quantileSorted } from '../stats/index.js';

/**
 * Bootstrap distribution of a statistic of resampled indices: B draws of n indices with
 * replacement, the same index stream as the stats library's bootstrap (rng.fillInts), so a seed
 * reproduces it. The statistic may return NaN (e.g. tau of a resample whose ratings are all tied);
 * intervals are then taken over the defined values and `undefined` counts the others.
 */
export function bootstrapDistribution(n: number, resamples: number, seed: number, statistic: (idx: Uint32Array) => number): Float64Array {
  const rng = createRng(seed);
  const idx = new Uint32Array(n);
  const out = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) out[b] = statistic(rng.fillInts(idx, n));
  return out;
}

export interface Percentiles {
  low90: number;
  high90: number;
  low95: number;
  high95: number;
  /** Resamples where the statistic was undefined (NaN), left out of the percentiles. */
  undefinedResamples: number;
}

/** 90% and 95% percentile intervals (numpy 'linear' quantiles) over the defined values. */
export function percentiles(distribution: Float64Array): Percentiles {
  const defined = distribution.filter(v => !Number.isNaN(v)).sort();
  const q = (p: number) => (defined.length ? quantileSorted(defined, p) : NaN);
  return { low90: q(0.05), high90: q(0.95), low95: q(0.025), high95: q(0.975), undefinedResamples: distribution.length - defined.length };
}

/** A seed per analysis, derived from the run's seed and a label, so adding an analysis never shifts another's draws. */
export function seedFor(seed: number, label: string): number {
  // FNV-1a over the label, mixed with the seed; kept below 2^53 for the PRNG.
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return (seed * 4294967296 + h) % 9007199254740991;
}

/** Median of the defined values; NaN when there are none. */
export function median(values: ArrayLike<number>): number {
  const v = Float64Array.from(values).filter(x => !Number.isNaN(x)).sort();
  return v.length ? quantileSorted(v, 0.5) : NaN;
}
