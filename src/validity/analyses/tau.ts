import { kendallTauB, pearson, tauBResampler } from '../../stats/index.js';
import { completePairs } from '../prepare.js';
import { bootstrapDistribution, percentiles } from '../resample.js';

/** Kendall tau-b with bootstrap intervals (the JSON contract's `{ tau, low90, high90, low95, high95, pValue }`, plus n). */
export interface TauSummary {
  tau: number;
  low90: number;
  high90: number;
  low95: number;
  high95: number;
  /** Two-sided p-value of tau = 0 (scipy's kendalltau, exact for small untied samples). */
  pValue: number;
  /** Pairs with both values present. */
  n: number;
}

export interface PearsonSummary {
  r: number;
  pValue: number;
  n: number;
}

export interface ResampleOptions {
  resamples: number;
  seed: number;
}

/** Fewer pairs than this and tau is not reported: its interval would be meaningless. */
export const MIN_PAIRS = 4;

/**
 * tau-b of the present pairs with percentile intervals from resampling the pairs; null when fewer
 * than MIN_PAIRS pairs, and NaN (not 0) when every pair is tied in one variable.
 */
export function tauSummary(xAll: ArrayLike<number>, yAll: ArrayLike<number>, o: ResampleOptions): TauSummary | null {
  const { x, y } = completePairs(xAll, yAll);
  const n = x.length;
  if (n < MIN_PAIRS) return null;
  const k = kendallTauB(x, y);
  const resampler = tauBResampler(x, y);
  const dist = bootstrapDistribution(n, o.resamples, o.seed, idx => resampler.tau(idx));
  const p = percentiles(dist);
  return { tau: k.tau, low90: p.low90, high90: p.high90, low95: p.low95, high95: p.high95, pValue: k.pValue, n };
}

export function pearsonSummary(xAll: ArrayLike<number>, yAll: ArrayLike<number>): PearsonSummary | null {
  const { x, y } = completePairs(xAll, yAll);
  if (x.length < MIN_PAIRS) return null;
  const r = pearson(x, y);
  return { r: r.r, pValue: r.pValue, n: r.n };
}
