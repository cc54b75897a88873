import { meanInterval } from '../../stats/index.js';
import type { Dimension } from '../run/plan.js';

/** A figure with its n (units) and 95% percentile-bootstrap interval over units (2,000 resamples, seeded). */
export interface Figure {
  mean: number | null;
  n: number;
  low: number | null;
  high: number | null;
}

export const RESAMPLES = 2000;

/** Macro average: the mean per unit of the values given, then the mean of units with its interval. */
export function overUnits<T>(rows: ReadonlyArray<T>, unitOf: (r: T) => string, valueOf: (r: T) => number | null, seed: number): Figure {
  const perUnit = new Map<string, number[]>();
  for (const r of rows) {
    const v = valueOf(r);
    if (v === null || !Number.isFinite(v)) continue;
    (perUnit.get(unitOf(r)) ?? perUnit.set(unitOf(r), []).get(unitOf(r))!).push(v);
  }
  return figure([...perUnit.keys()].sort().map(u => mean(perUnit.get(u)!)), seed);
}

export function figure(values: ReadonlyArray<number>, seed: number): Figure {
  const m = meanInterval(values, { resamples: RESAMPLES, seed });
  return { mean: m.mean, n: m.n, low: m.low, high: m.high };
}

export const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The per-unit means of values, keyed by unit: the pairs error injection and correlations compare. */
export function unitMeans<T>(rows: ReadonlyArray<T>, unitOf: (r: T) => string, valueOf: (r: T) => number | null): Map<string, number> {
  const perUnit = new Map<string, number[]>();
  for (const r of rows) {
    const v = valueOf(r);
    if (v === null || !Number.isFinite(v)) continue;
    (perUnit.get(unitOf(r)) ?? perUnit.set(unitOf(r), []).get(unitOf(r))!).push(v);
  }
  return new Map([...perUnit].map(([u, vs]) => [u, mean(vs)]));
}

/** Learner figures of a set of learner trials: pre, post, gain, near, far. */
export type LearnerFigureKey = 'pre' | 'post' | 'gain' | 'near' | 'far';
export const LEARNER_KEYS: ReadonlyArray<LearnerFigureKey> = ['pre', 'post', 'gain', 'near', 'far'];
export type JudgeFigureKey = Dimension;
