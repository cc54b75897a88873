import { bootstrapCI } from '../stats/inference/bootstrap.js';

/**
 * Mean with a seeded 95% percentile bootstrap interval over items. With fewer than two items
 * there is no interval (null bounds), never a made-up one.
 */
export function meanInterval(values: number[], o: { resamples: number; seed: number }): { mean: number | null; low: number | null; high: number | null } {
  if (values.length === 0) return { mean: null, low: null, high: null };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (values.length < 2) return { mean, low: null, high: null };
  const ci = bootstrapCI(values, 'mean', { resamples: o.resamples, seed: o.seed, level: 0.95, method: 'percentile' });
  return { mean, low: ci.low, high: ci.high };
}
