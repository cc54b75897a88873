import { crossedComponents, varianceComponents, type VarianceComponentsResult } from '../../stats/index.js';
import { bootstrapDistribution, percentiles } from '../resample.js';

/** One variance component of a decomposition (public JSON: `anovaEstimate`, `estimate`, `share`). */
export interface ComponentShare {
  /** ANOVA expected-mean-squares estimate (may be negative). */
  anovaEstimate: number;
  /** REML estimate (>= 0). */
  estimate: number;
  /** estimate / sum of the REML estimates. */
  share: number;
  /** ANOVA share, negatives counted as 0. */
  anovaShare: number;
  /** Percentile interval of `share` from resampling the first facet's levels (REML refit per resample). */
  low95: number;
  high95: number;
}

export interface ShareSummary {
  share: number;
  low95: number;
  high95: number;
}

export interface Decomposition {
  facets: string[];
  levels: Record<string, number>;
  cells: number;
  /** Keyed by facet names joined with ':' in facet order, e.g. `observation:item`. */
  components: Record<string, ComponentShare>;
  /** Sum of the shares of every component that involves one of `controlledBy` (e.g. rater or prompt). */
  controlled: ShareSummary & { by: string[] };
  /** The rest: components made only of the evidence facets (e.g. observation, item). */
  evidence: ShareSummary;
  resamples: number;
}

/**
 * Decomposes a dense, fully crossed array (first facet slowest) with ANOVA-EMS and REML and
 * bootstraps the REML shares by resampling the first facet's levels (the observations: the sample
 * the study would draw again). Point estimates go through varianceComponents; the resamples use
 * the dense crossedComponents, which gives the same estimates without building rows.
 */
export function decomposeDense(
  y: Float64Array, facets: string[], sizes: number[], controlledBy: string[], o: { resamples: number; seed: number },
): Decomposition {
  const rows = denseRows(y, facets, sizes);
  const anova = varianceComponents(rows, { facets, value: '__y' });
  const reml = varianceComponents(rows, { facets, value: '__y', method: 'reml' });
  const keys = crossedComponents(y, facets, sizes).keys;
  const byKey = (r: VarianceComponentsResult) => new Map(r.components.map(c => [c.key, c]));
  const a = byKey(anova);
  const r = byKey(reml);
  const remlTotal = reml.components.reduce((s, c) => s + Math.max(0, c.estimate), 0);
  const isControlled = keys.map(k => k.split(':').some(f => controlledBy.includes(f)));

  const block = y.length / sizes[0]!;
  const buffer = new Float64Array(y.length);
  const shares: Float64Array[] = keys.map(() => new Float64Array(o.resamples));
  const controlledShare = new Float64Array(o.resamples);
  let b = 0;
  bootstrapDistribution(sizes[0]!, o.resamples, o.seed, idx => {
    for (let i = 0; i < idx.length; i++) buffer.set(y.subarray(idx[i]! * block, (idx[i]! + 1) * block), i * block);
    // A resample that repeats every level once has no first-facet variance; REML still fits.
    const est = crossedComponents(buffer, facets, sizes, 'reml').estimates;
    const total = est.reduce((s, v) => s + v, 0);
    let c = 0;
    keys.forEach((_, k) => {
      const share = total > 0 ? est[k]! / total : NaN;
      shares[k]![b] = share;
      if (isControlled[k]) c += share;
    });
    controlledShare[b++] = c;
    return 0;
  });
  const components: Record<string, ComponentShare> = {};
  keys.forEach((key, k) => {
    const q = percentiles(shares[k]!);
    components[key] = {
      anovaEstimate: a.get(key)!.anovaEstimate,
      estimate: r.get(key)!.estimate,
      share: remlTotal > 0 ? r.get(key)!.estimate / remlTotal : NaN,
      anovaShare: a.get(key)!.share,
      low95: q.low95,
      high95: q.high95,
    };
  });
  const controlled = keys.reduce((s, key, k) => s + (isControlled[k] ? components[key]!.share : 0), 0);
  const cq = percentiles(controlledShare);
  const eq = percentiles(controlledShare.map(v => 1 - v));
  return {
    facets, levels: Object.fromEntries(facets.map((f, i) => [f, sizes[i]!])), cells: y.length, components,
    controlled: { by: controlledBy, share: controlled, low95: cq.low95, high95: cq.high95 },
    evidence: { share: 1 - controlled, low95: eq.low95, high95: eq.high95 },
    resamples: o.resamples,
  };
}

/** Long rows for varianceComponents from the dense layout (levels numbered from 0). */
export function denseRows(y: Float64Array, facets: string[], sizes: number[]): Record<string, number>[] {
  const rows: Record<string, number>[] = new Array(y.length);
  for (let c = 0; c < y.length; c++) {
    const row: Record<string, number> = { __y: y[c]! };
    let rest = c;
    for (let f = facets.length - 1; f >= 0; f--) { row[facets[f]!] = rest % sizes[f]!; rest = Math.floor(rest / sizes[f]!); }
    rows[c] = row;
  }
  return rows;
}
