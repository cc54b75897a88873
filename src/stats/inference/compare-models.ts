import { pairedBootstrap, type SeededIntervalOptions } from './bootstrap.js';

/** One system of a comparison: its score per unit (item, task) and its own interval, if it has one. */
export interface ComparedModel {
  name: string;
  /** Score per unit id; only units both systems have count. */
  values: ReadonlyMap<string, number>;
  /** The system's own interval on the same scores (null bounds: it has none). */
  interval?: { low: number | null; high: number | null } | undefined;
}

/** A paired comparison of two systems over the units both were scored on. */
export interface ModelComparison {
  a: string;
  b: string;
  /** Units both systems have a score for. */
  n: number;
  /** Mean of (a - b) over those units; the one difference when n = 1; null when n = 0. */
  difference: number | null;
  /** Paired percentile-bootstrap interval of the difference; null when n < 2. */
  low: number | null;
  high: number | null;
  /** Share of resampled differences <= 0: the one-sided bootstrap p-value for "a beats b"; null when n < 2. */
  pOneSided: number | null;
  /** Both systems have an interval of their own. */
  bothIntervals: boolean;
  /**
   * The two systems' own intervals overlap, or one of them has none: then a table of their scores
   * does not show which is better, whatever the paired difference says.
   */
  intervalsOverlap: boolean;
}

/** Resamples, seed and (default 0.95) level of the paired interval. */
export type CompareModelsOptions = SeededIntervalOptions;

/**
 * Paired comparisons of the given pairs of systems: units are matched by id (in sorted id order, so
 * the seeded resamples do not depend on insertion order) and resampled jointly, so the interval
 * reflects unit-to-unit covariance. The overlap of the systems' own intervals is reported beside
 * it, because readers compare the intervals in the score table.
 */
export function compareModels(pairs: ReadonlyArray<readonly [ComparedModel, ComparedModel]>, o: CompareModelsOptions): ModelComparison[] {
  return pairs.map(([a, b]) => {
    const shared = [...a.values.keys()].filter(u => b.values.has(u)).sort();
    const xa = shared.map(u => a.values.get(u)!);
    const xb = shared.map(u => b.values.get(u)!);
    let difference: number | null = null, low: number | null = null, high: number | null = null, pOneSided: number | null = null;
    if (shared.length >= 2) {
      ({ difference, low, high, pOneSided } = pairedBootstrap(xa, xb, { resamples: o.resamples, seed: o.seed, level: o.level ?? 0.95, method: 'percentile' }));
    } else if (shared.length === 1) {
      difference = xa[0]! - xb[0]!;
    }
    const ia = a.interval;
    const ib = b.interval;
    const bothIntervals = ia?.low != null && ia.high != null && ib?.low != null && ib.high != null;
    const intervalsOverlap = !bothIntervals || Math.max(ia!.low!, ib!.low!) <= Math.min(ia!.high!, ib!.high!);
    return { a: a.name, b: b.name, n: shared.length, difference, low, high, pOneSided, bothIntervals, intervalsOverlap };
  });
}
