import { bootstrapCI } from '../../stats/inference/bootstrap.js';

/** A mean with its n and 95% percentile-bootstrap interval (null bounds when n < 2). */
export interface Estimate {
  mean: number | null;
  n: number;
  low: number | null;
  high: number | null;
}

/** Resamples and seed of every interval in scenario reports, recorded in `method`. */
export const RESAMPLES = 2000;
export const SEED = 20261129;

export function estimate(values: ReadonlyArray<number>): Estimate {
  if (values.length === 0) return { mean: null, n: 0, low: null, high: null };
  if (values.length < 2) return { mean: values[0]!, n: 1, low: null, high: null };
  const ci = bootstrapCI([...values], 'mean', { resamples: RESAMPLES, level: 0.95, seed: SEED });
  return { mean: ci.estimate, n: values.length, low: ci.low, high: ci.high };
}
