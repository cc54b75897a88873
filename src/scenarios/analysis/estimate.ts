import type { MeanInterval } from '../../stats/inference/mean-interval.js';

/** A mean with its n and 95% percentile-bootstrap interval (null bounds when n < 2). */
export type Estimate = MeanInterval;

/** Resamples and seed of every interval in scenario reports, recorded in the report's `method`. */
export const SCENARIO_INTERVAL = { resamples: 2000, seed: 20261129 } as const;
