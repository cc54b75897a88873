import type { Prepared, Series } from '../prepare.js';
import { seedFor } from '../resample.js';
import { pearsonSummary, tauSummary, type PearsonSummary, type ResampleOptions, type TauSummary } from './tau.js';

/** One row of `alignment[]` (public JSON contract). */
export interface AlignmentRow {
  rater: string;
  prompt: string;
  item: string;
  /** Observations with both a scored rating and an expert mean. */
  n: number;
  /** Units with both a rating and an outcome. */
  nUnits: number;
  ratings: number;
  unscored: number;
  tauExperts: TauSummary | null;
  tauOutcome: TauSummary | null;
  pearsonExperts: PearsonSummary | null;
  pearsonOutcome: PearsonSummary | null;
}

/** How a series of scores lines up with the experts' mean (per observation) and the outcome (per unit). */
export function alignSeries(p: Prepared, item: string, byObservation: Float64Array, byUnit: Float64Array, label: string, o: ResampleOptions) {
  const experts = p.expertMean.get(item);
  const nanObs = new Float64Array(byObservation.length).fill(NaN);
  const hx = experts?.byObservation ?? nanObs;
  return {
    tauExperts: tauSummary(byObservation, hx, { ...o, seed: seedFor(o.seed, `experts|${label}`) }),
    tauOutcome: tauSummary(byUnit, p.outcome, { ...o, seed: seedFor(o.seed, `outcome|${label}`) }),
    pearsonExperts: pearsonSummary(byObservation, hx),
    pearsonOutcome: pearsonSummary(byUnit, p.outcome),
  };
}

/** Alignment per rater x prompt x item (KwW Table 3: read `tauOutcome.low90` as the lower bound). */
export function alignment(p: Prepared, o: ResampleOptions): AlignmentRow[] {
  return p.series.map((s: Series) => {
    const a = alignSeries(p, s.item, s.byObservation, s.byUnit, `${s.rater}|${s.prompt}|${s.item}`, o);
    return {
      rater: s.rater, prompt: s.prompt, item: s.item,
      n: a.tauExperts?.n ?? countPairs(s.byObservation, p.expertMean.get(s.item)?.byObservation),
      nUnits: a.tauOutcome?.n ?? countPairs(s.byUnit, p.outcome),
      ratings: s.ratings, unscored: s.unscored,
      ...a,
    };
  });
}

function countPairs(x: Float64Array, y: Float64Array | undefined): number {
  if (!y) return 0;
  let n = 0;
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i]!) && !Number.isNaN(y[i]!)) n++;
  return n;
}
