import { tauBResampler, type TauBResampler } from '../../stats/index.js';
import { meanPerUnit, type Prepared, type Series } from '../prepare.js';
import { bootstrapDistribution, median, percentiles, seedFor } from '../resample.js';
import { alignSeries } from './alignment.js';
import { MIN_PAIRS, type PearsonSummary, type ResampleOptions, type TauSummary } from './tau.js';

export type EnsembleKind = 'expertise-weighted' | 'unanimous-vote';

export interface EnsembleRow {
  kind: EnsembleKind;
  prompt: string;
  item: string;
  raters: string[];
  /** Observations the ensemble scores (unanimous: those where every rater gave the same score). */
  scored: number;
  tauExperts: TauSummary | null;
  tauOutcome: TauSummary | null;
  pearsonExperts: PearsonSummary | null;
  pearsonOutcome: PearsonSummary | null;
}

/** Bootstrap test of median tau (ensembles over prompt x item) minus median tau (raters over rater x prompt x item). */
export interface EnsembleTest {
  kind: EnsembleKind;
  axis: 'experts' | 'outcome';
  medianEnsemble: number;
  medianIndividual: number;
  change: number;
  low95: number;
  high95: number;
  /** Two-sided: 2 min(share of resampled changes <= 0, share >= 0), at most 1. */
  pValue: number;
  resamples: number;
}

export interface Ensembles {
  rows: EnsembleRow[];
  tests: EnsembleTest[];
  /** Why an ensemble was not built (e.g. no weights given, a single rater). */
  skipped: string[];
}

interface Built { kind: EnsembleKind; prompt: string; item: string; raters: string[]; byObservation: Float64Array }

export function ensembles(p: Prepared, o: ResampleOptions): Ensembles {
  const skipped: string[] = [];
  const built: Built[] = [];
  const weights = p.table.raterWeights;
  const unweighted = p.raters.filter(r => !weights.has(r));
  if (p.raters.length < 2) skipped.push(`ensembles need at least two raters; the ratings name ${p.raters.length}`);
  else if (weights.size === 0) skipped.push('expertise-weighted: no rater weights given (--rater-weights FILE with rater,weight)');
  else if (unweighted.length) skipped.push(`expertise-weighted: no weight for ${unweighted.join(', ')}; give every rater a weight`);
  for (const prompt of p.prompts) {
    for (const item of p.items) {
      const members = p.series.filter(s => s.prompt === prompt && s.item === item);
      if (members.length < 2) continue;
      const raters = members.map(s => s.rater);
      if (weights.size && !unweighted.length) built.push({ kind: 'expertise-weighted', prompt, item, raters, byObservation: weighted(members, weights, p.observations.length) });
      built.push({ kind: 'unanimous-vote', prompt, item, raters, byObservation: unanimous(members, p.observations.length) });
    }
  }
  const rows = built.map((b): EnsembleRow => {
    const byUnit = meanPerUnit(b.byObservation, p.unitOfObservation, p.units.length);
    const a = alignSeries(p, b.item, b.byObservation, byUnit, `ensemble|${b.kind}|${b.prompt}|${b.item}`, o);
    return { kind: b.kind, prompt: b.prompt, item: b.item, raters: b.raters, scored: b.byObservation.filter(v => !Number.isNaN(v)).length, ...a };
  });
  const tests: EnsembleTest[] = [];
  for (const kind of ['expertise-weighted', 'unanimous-vote'] as const) {
    const mine = built.filter(b => b.kind === kind);
    if (!mine.length) continue;
    tests.push(medianTest(p, kind, mine, 'experts', o));
    if (p.outcome.some(v => !Number.isNaN(v))) tests.push(medianTest(p, kind, mine, 'outcome', o));
  }
  return { rows, tests, skipped };
}

function weighted(members: Series[], weights: ReadonlyMap<string, number>, n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => {
    let s = 0;
    let w = 0;
    for (const m of members) {
      const v = m.byObservation[i]!;
      if (Number.isNaN(v)) continue;
      s += weights.get(m.rater)! * v;
      w += weights.get(m.rater)!;
    }
    return w > 0 ? s / w : NaN;
  });
}

function unanimous(members: Series[], n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => {
    const first = members[0]!.byObservation[i]!;
    return members.every(m => m.byObservation[i] === first) ? first : NaN;
  });
}

function medianTest(p: Prepared, kind: EnsembleKind, mine: Built[], axis: 'experts' | 'outcome', o: ResampleOptions): EnsembleTest {
  // Per series: its values on the resampled axis and the matching reference values.
  const onAxis = (byObservation: Float64Array, item: string): TauBResampler => tauBResampler(...(axis === 'experts'
    ? [byObservation, p.expertMean.get(item)?.byObservation ?? new Float64Array(byObservation.length).fill(NaN)]
    : [meanPerUnit(byObservation, p.unitOfObservation, p.units.length), p.outcome]) as [Float64Array, Float64Array], { minPairs: MIN_PAIRS });
  const ensemble = mine.map(b => onAxis(b.byObservation, b.item));
  const items = new Set(mine.map(b => `${b.prompt}|${b.item}`));
  const individual = p.series.filter(s => items.has(`${s.prompt}|${s.item}`)).map(s => onAxis(s.byObservation, s.item));
  const size = axis === 'experts' ? p.observations.length : p.units.length;
  const identity = Uint32Array.from({ length: size }, (_, i) => i);
  const change = (idx: Uint32Array) => median(ensemble.map(r => r.tau(idx))) - median(individual.map(r => r.tau(idx)));
  const medianEnsemble = median(ensemble.map(r => r.tau(identity)));
  const medianIndividual = median(individual.map(r => r.tau(identity)));
  const dist = bootstrapDistribution(size, o.resamples, seedFor(o.seed, `ensemble-test|${kind}|${axis}`), change);
  const q = percentiles(dist);
  const defined = dist.filter(v => !Number.isNaN(v));
  const le = defined.filter(v => v <= 0).length / defined.length;
  const ge = defined.filter(v => v >= 0).length / defined.length;
  return {
    kind, axis, medianEnsemble, medianIndividual, change: medianEnsemble - medianIndividual,
    low95: q.low95, high95: q.high95, pValue: Math.min(1, 2 * Math.min(le, ge)), resamples: o.resamples,
  };
}
