import { StatsInputError } from '../inference/errors.js';
import { enumerateEffects, finishTable, emsEstimates } from './anova.js';
import { remlEstimates } from './reml.js';

export interface CrossedComponents {
  /** Effect keys (facet names joined by ':'), in the order of {@link varianceComponents}. */
  keys: string[];
  anovaEstimates: Float64Array;
  /** The chosen method's estimates (REML: >= 0). */
  estimates: Float64Array;
}

/**
 * Variance components of a fully crossed random design given as a dense array of cell scores in
 * mixed-radix order (first facet slowest): the same ANOVA-EMS / REML estimates as
 * {@link varianceComponents}, without row objects or level coding. All 2^k marginal tables come
 * from collapsing one axis of a larger one, so a 100k-cell four-facet design costs about five
 * passes over the cells: cheap enough to refit on every bootstrap resample.
 */
export function crossedComponents(y: Float64Array, facets: readonly string[], sizes: readonly number[], method: 'anova' | 'reml' = 'anova'): CrossedComponents {
  const k = facets.length;
  if (sizes.length !== k || k === 0 || k > 16) throw new StatsInputError('sizes', `expected one size per facet (1..16 facets), got ${sizes.length} for ${k}`);
  const N = sizes.reduce((a, b) => a * b, 1);
  if (y.length !== N) throw new StatsInputError('y', `expected ${N} cells (${sizes.join(' x ')}), got ${y.length}`);
  if (sizes.some(s => !(s >= 2))) throw new StatsInputError('sizes', `each facet needs at least 2 levels, got ${sizes.join(' x ')}`);
  let total = 0;
  for (let c = 0; c < N; c++) total += y[c]!;
  const grandMean = total / N;
  const full = new Float64Array(N);
  for (let c = 0; c < N; c++) full[c] = y[c]! - grandMean;
  const all = (1 << k) - 1;
  const tables = new Map<number, Float64Array>([[all, full]]);
  // Marginal of `mask` = marginal of mask plus its lowest missing facet, with that axis summed out.
  const marginal = (mask: number): Float64Array => {
    const have = tables.get(mask);
    if (have) return have;
    let d = 0;
    while (mask & (1 << d)) d++;
    const parentMask = mask | (1 << d);
    const parent = marginal(parentMask);
    let outer = 1;
    let inner = 1;
    for (let f = 0; f < k; f++) {
      if (!(parentMask & (1 << f))) continue;
      if (f < d) outer *= sizes[f]!;
      else if (f > d) inner *= sizes[f]!;
    }
    const n = sizes[d]!;
    const out = new Float64Array(outer * inner);
    for (let o = 0; o < outer; o++) {
      const base = o * n * inner;
      const target = o * inner;
      for (let t = 0; t < n; t++) {
        const from = base + t * inner;
        for (let i = 0; i < inner; i++) out[target + i] = out[target + i]! + parent[from + i]!;
      }
    }
    tables.set(mask, out);
    return out;
  };
  const codesless = { facets: [...facets], ancestors: facets.map(() => [] as string[]) };
  const effects = enumerateEffects(codesless);
  const tCentred = new Map<number, number>();
  for (const mask of [0, ...effects.map(e => e.mask)]) {
    const sums = marginal(mask);
    let t = 0;
    for (let j = 0; j < sums.length; j++) t += sums[j]! * sums[j]!;
    tCentred.set(mask, (t * sums.length) / N);
  }
  const table = finishTable(effects, sizes, tCentred, N, grandMean);
  const anova = emsEstimates(table);
  const estimates = method === 'reml' ? remlEstimates(table, anova).estimates : anova;
  return {
    keys: effects.map(e => e.members.map(f => facets[f]).join(':')),
    anovaEstimates: Float64Array.from(anova),
    estimates: Float64Array.from(estimates),
  };
}
