import { normalQuantile } from './distributions.js';
import { StatsInputError, confidenceLevel, integerIn } from './errors.js';

export interface ProportionInterval {
  /** successes / n. */
  estimate: number;
  low: number;
  high: number;
  level: number;
  successes: number;
  n: number;
}

/**
 * Wilson score interval for a binomial proportion (Wilson 1927; as statsmodels
 * proportion_confint(method='wilson')): with z = Phi^{-1}(1 - (1 - level)/2) and p = k/n,
 * centre (p + z^2/2n) / (1 + z^2/n), half-width z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n).
 * Bounds are clamped to [0, 1] (they can only leave it by rounding, at k = 0 or k = n).
 * Needs integers 0 <= successes <= n, n >= 1.
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): ProportionInterval {
  integerIn('n', n, 1);
  integerIn('successes', successes, 0);
  if (successes > n) throw new StatsInputError('successes', `must be <= n (${n}), got ${successes}`);
  confidenceLevel('level', level);
  const z = normalQuantile(1 - (1 - level) / 2);
  const z2 = z * z;
  const p = successes / n;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return {
    estimate: p,
    // Exact at the ends: with no successes (or no failures) the bound is 0 (or 1), not rounding noise.
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
    level,
    successes,
    n,
  };
}
