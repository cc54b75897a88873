import { distanceCorrelationSq } from '../../stats/index.js';
import { completePairs, type Prepared } from '../prepare.js';
import { bootstrapDistribution, percentiles, seedFor } from '../resample.js';
import type { ResampleOptions } from './tau.js';

/** A series in the dependence analysis: one rater (mean over prompts and repeats) or the experts' mean, on one item. */
interface Variable {
  label: string;
  source: string;
  isExperts: boolean;
  item: string;
  values: Float64Array;
}

export interface DcorMatrix {
  labels: string[];
  /** Bias-corrected dCor^2 (may be negative); null when fewer than 4 observations are shared. */
  values: (number | null)[][];
  /** Shared observations per pair. */
  n: number[][];
}

export type RelationshipType = 'model-model within item' | 'model-model across items' | 'model-expert';

export interface DependenceSummary {
  type: RelationshipType;
  pairs: number;
  mean: number;
  /** Percentile interval of the mean over pairs (pairs resampled). */
  low95: number;
  high95: number;
  min: number;
  max: number;
}

export interface Dependence {
  /** Per item: raters and the experts' mean. */
  withinItem: { item: string; matrix: DcorMatrix }[];
  /** Every rater on every item (and the experts per item), over shared observations. */
  acrossItems: DcorMatrix;
  summaries: DependenceSummary[];
}

/** Needs at least this many shared observations (the U-statistic divides by n(n - 3)). */
const MIN_DCOR = 4;

export function dependence(p: Prepared, o: ResampleOptions): Dependence {
  const variables: Variable[] = [];
  for (const item of p.items) {
    for (const rater of p.raters) {
      const parts = p.series.filter(s => s.item === item && s.rater === rater);
      if (!parts.length) continue;
      // A rater's score on an observation: mean over the prompts that scored it.
      const values = Float64Array.from(p.observations, (_, i) => {
        const v = parts.map(s => s.byObservation[i]!).filter(x => !Number.isNaN(x));
        return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
      });
      variables.push({ label: `${rater} · ${item}`, source: rater, isExperts: false, item, values });
    }
    const experts = p.expertMean.get(item);
    if (experts) variables.push({ label: `experts · ${item}`, source: 'experts', isExperts: true, item, values: experts.byObservation });
  }
  const cache = new Map<string, { v: number | null; n: number }>();
  const pair = (a: Variable, b: Variable) => {
    const key = `${a.label}\u0000${b.label}`;
    let hit = cache.get(key);
    if (!hit) {
      const { x, y } = completePairs(a.values, b.values);
      hit = { v: x.length >= MIN_DCOR ? distanceCorrelationSq(x, y).dcorSq : null, n: x.length };
      cache.set(key, hit);
      cache.set(`${b.label}\u0000${a.label}`, hit);
    }
    return hit;
  };
  const matrix = (vs: Variable[]): DcorMatrix => ({
    labels: vs.map(v => v.label),
    values: vs.map(a => vs.map(b => (a === b ? 1 : pair(a, b).v))),
    n: vs.map(a => vs.map(b => (a === b ? completePairs(a.values, a.values).x.length : pair(a, b).n))),
  });
  const byType = new Map<RelationshipType, number[]>();
  for (let i = 0; i < variables.length; i++) {
    for (let j = i + 1; j < variables.length; j++) {
      const a = variables[i]!;
      const b = variables[j]!;
      const type = relationship(a, b);
      const v = type && pair(a, b).v;
      if (type && v !== null) byType.set(type, [...(byType.get(type) ?? []), v]);
    }
  }
  const types: RelationshipType[] = ['model-model within item', 'model-model across items', 'model-expert'];
  return {
    withinItem: p.items.map(item => ({ item, matrix: matrix(variables.filter(v => v.item === item)) })),
    acrossItems: matrix(variables),
    summaries: types.filter(t => byType.has(t)).map(t => summarise(t, byType.get(t)!, o)),
  };
}

/** Different raters on one item; different raters on different items; a rater and the experts on one item. */
function relationship(a: Variable, b: Variable): RelationshipType | null {
  if (a.isExperts && b.isExperts) return null;
  if (a.isExperts || b.isExperts) return a.item === b.item ? 'model-expert' : null;
  if (a.source === b.source) return null;
  return a.item === b.item ? 'model-model within item' : 'model-model across items';
}

function summarise(type: RelationshipType, values: number[], o: ResampleOptions): DependenceSummary {
  const v = Float64Array.from(values);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const dist = bootstrapDistribution(v.length, o.resamples, seedFor(o.seed, `dcor|${type}`), idx => {
    let s = 0;
    for (let i = 0; i < idx.length; i++) s += v[idx[i]!]!;
    return s / idx.length;
  });
  const q = percentiles(dist);
  return { type, pairs: v.length, mean, low95: q.low95, high95: q.high95, min: Math.min(...v), max: Math.max(...v) };
}
