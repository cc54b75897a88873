import { bootstrapCI, type SeededIntervalOptions } from './bootstrap.js';
import { confidenceLevel, integerIn } from './errors.js';

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
  // Every resample of a constant sample adds the same values in the same order as its mean does,
  // so each equals the mean bit for bit, and so do both percentiles: the draws (40 million for a
  // 20,000-item cell of a baseline at 100%) are skipped, the interval is the one they would give.
  const first = values[0]!;
  if (Number.isFinite(first) && values.every(v => v === first)) {
    integerIn('resamples', o.resamples, 2);
    confidenceLevel('level', o.level ?? 0.95);
    let total = 0;
    for (const v of values) total += v;
    const mean = total / values.length;
    return { mean, n: values.length, low: mean, high: mean };
  }
  const ci = bootstrapCI([...values], 'mean', { resamples: o.resamples, seed: o.seed, level: o.level ?? 0.95, method: 'percentile' });
  return { mean: ci.estimate, n: values.length, low: ci.low, high: ci.high };
}
