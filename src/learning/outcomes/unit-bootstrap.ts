import { createRng, quantileSorted } from '../../stats/index.js';

/** Resampling settings of every interval over units: 2,000 resamples, seeded, 95% by default. */
export interface UnitIntervalOptions {
  resamples?: number;
  seed: number;
  level?: number;
}

/** A figure over units with its percentile bootstrap interval. */
export interface Estimate {
  value: number;
  /** NaN when there are fewer than two units, or fewer than two resamples where the figure is defined. */
  low: number;
  high: number;
  /** Units the figure is over. */
  n: number;
  level: number;
  /** Resamples in which the figure was defined (the others drew only units without it). */
  resamples: number;
  seed: number;
}

/**
 * Percentile bootstrap over units: each resample draws n unit indices with the stats PRNG
 * (`fillInts`, the stream `bootstrapCI` draws, so a 'mean' statistic gives bootstrapCI's interval)
 * and evaluates `statistic` on them. A statistic returns NaN where it is undefined; such resamples
 * are left out and counted out of `resamples`.
 */
export function overUnits(n: number, statistic: (units: ArrayLike<number>) => number, o: UnitIntervalOptions): Estimate {
  const level = o.level ?? 0.95;
  const resamples = o.resamples ?? 2000;
  const identity = Uint32Array.from({ length: n }, (_, i) => i);
  const value = n === 0 ? NaN : statistic(identity);
  if (n < 2 || Number.isNaN(value)) return { value, low: NaN, high: NaN, n, level, resamples: 0, seed: o.seed };
  const rng = createRng(o.seed);
  const idx = new Uint32Array(n);
  const theta: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const v = statistic(rng.fillInts(idx, n));
    if (!Number.isNaN(v)) theta.push(v);
  }
  const sorted = Float64Array.from(theta).sort();
  const alpha = (1 - level) / 2;
  const ok = sorted.length >= 2;
  return {
    value, n, level, resamples: sorted.length, seed: o.seed,
    low: ok ? quantileSorted(sorted, alpha) : NaN,
    high: ok ? quantileSorted(sorted, 1 - alpha) : NaN,
  };
}
