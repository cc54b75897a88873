import { bootstrapCI, type SeededIntervalOptions } from './bootstrap.js';

/** A mean with its n and two-sided percentile-bootstrap interval; null bounds when n < 2. */
export interface MeanInterval {
  /** Mean of the values; null when there are none. */
  mean: number | null;
  /** Number of values (items, tasks) averaged. */
  n: number;
  /** Lower bound of the interval; null when n < 2. */
  low: number | null;
  /** Upper bound of the interval; null when n < 2. */
  high: number | null;
}

/** Options of {@link meanInterval}: resamples and seed are recorded in reports so a reader can reproduce them. */
export type MeanIntervalOptions = SeededIntervalOptions;

/**
 * The mean of per-unit values (items of a suite, tasks of a scenario) with a seeded percentile
 * bootstrap interval ({@link bootstrapCI}, `'mean'`). With fewer than two values there is no
 * interval (null bounds), never a made-up one; with none there is no mean either.
 */
export function meanInterval(values: ReadonlyArray<number>, o: MeanIntervalOptions): MeanInterval {
  if (values.length === 0) return { mean: null, n: 0, low: null, high: null };
  if (values.length < 2) return { mean: values[0]!, n: 1, low: null, high: null };
  const ci = bootstrapCI([...values], 'mean', { resamples: o.resamples, seed: o.seed, level: o.level ?? 0.95, method: 'percentile' });
  return { mean: ci.estimate, n: values.length, low: ci.low, high: ci.high };
}
