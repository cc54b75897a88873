import type { Prepared } from '../prepare.js';
import { seedFor } from '../resample.js';
import { decomposeDense, type Decomposition } from './shares.js';
import type { ResampleOptions } from './tau.js';

export interface MissingCell {
  observation: string;
  item: string;
  rater?: string;
  prompt?: string;
  expert?: string;
}

/** Which cells the decomposition used, and which the crossed design lacked. */
export interface DesignReport {
  facets: string[];
  /** True when every observation x item x rater x prompt cell has a rating and an expert mean. */
  fullyCrossed: boolean;
  cellsExpected: number;
  cellsUsed: number;
  missingCells: number;
  /** The first missing cells (at most 50). */
  missing: MissingCell[];
  /** Observations left out because one of their cells is missing. */
  droppedObservations: string[];
  /** Facets with a single level, left out of the design (nothing varies along them). */
  singleLevelFacets: string[];
  /** Why nothing could be decomposed, when so. */
  reason?: string;
}

export interface ErrorDecomposition {
  design: DesignReport;
  /** e = (r' - h')^2 on the items' [0, 1] rescaling. */
  squaredError: Decomposition | null;
  /** sign(r' - h') (r' - h')^2. */
  signedError: Decomposition | null;
  /** The rescaled ratings r' themselves (what the D-study generalizes). */
  ratings: Decomposition | null;
  /** Experts in place of rater x prompt: each expert against the mean of the other experts. */
  experts: { design: DesignReport; squaredError: Decomposition | null; signedError: Decomposition | null } | null;
}

interface Grid { facets: string[]; levels: string[][]; measures: Record<string, Float64Array>; design: DesignReport }

export function decomposition(p: Prepared, o: ResampleOptions): ErrorDecomposition {
  const g = modelGrid(p);
  // Without experts every cell is missing; say why in those words, not as a hole in the design.
  if (p.expertMean.size === 0) g.design.reason = "no expert ratings: a cell's error is its distance from the experts' mean, and the D-study reads the same cells; attach experts (--experts FILE) to decompose";
  const run = (grid: Grid, measure: string, controlled: string[]) =>
    grid.design.reason ? null : decomposeDense(grid.measures[measure]!, grid.facets, grid.levels.map(l => l.length), controlled, { ...o, seed: seedFor(o.seed, `decomposition|${grid.facets.join(':')}|${measure}`) });
  const controlled = ['rater', 'prompt'];
  const e = expertGrid(p);
  return {
    design: g.design,
    squaredError: run(g, 'squared', controlled),
    signedError: run(g, 'signed', controlled),
    ratings: run(g, 'rating', controlled),
    experts: e && { design: e.design, squaredError: run(e, 'squared', ['expert']), signedError: run(e, 'signed', ['expert']) },
  };
}

const rescale = (p: Prepared, item: string, v: number) => {
  const s = p.table.scales.get(item)!;
  return (v - s.min) / (s.max - s.min);
};

function modelGrid(p: Prepared): Grid {
  const bySeries = new Map(p.series.map(s => [`${s.rater}|${s.prompt}|${s.item}`, s]));
  const dims = { item: p.items, rater: p.raters, prompt: p.prompts };
  return buildGrid(p, dims, (obs, [item, rater, prompt]) => {
    const r = bySeries.get(`${rater}|${prompt}|${item}`)?.byObservation[obs] ?? NaN;
    const h = p.expertMean.get(item!)?.byObservation[obs] ?? NaN;
    if (Number.isNaN(r) || Number.isNaN(h)) return null;
    const d = rescale(p, item!, r) - rescale(p, item!, h);
    return { squared: d * d, signed: Math.sign(d) * d * d, rating: rescale(p, item!, r) };
  });
}

function expertGrid(p: Prepared): Grid | null {
  if (p.experts.length < 2) return null;
  const score = new Map(p.table.experts.map(e => [`${e.observation}|${e.item}|${e.expert}`, e.score]));
  return buildGrid(p, { item: p.items, expert: p.experts }, (obs, [item, expert]) => {
    const name = p.observations[obs]!;
    const own = score.get(`${name}|${item}|${expert}`);
    const others = p.experts.filter(x => x !== expert).map(x => score.get(`${name}|${item}|${x}`));
    if (own === undefined || others.some(v => v === undefined)) return null;
    // Leave-one-out: an expert's error against the others' mean, as a rater's against all experts.
    const h = others.reduce((a: number, b) => a + b!, 0) / others.length;
    const d = rescale(p, item!, own) - rescale(p, item!, h);
    return { squared: d * d, signed: Math.sign(d) * d * d };
  });
}

/**
 * Lays cells out densely (observation slowest). Observations missing any cell are dropped and every
 * missing cell is reported; facets with one level are left out.
 */
function buildGrid(p: Prepared, dims: Record<string, string[]>, cell: (obs: number, at: string[]) => Record<string, number> | null): Grid {
  const names = Object.keys(dims);
  const combos: string[][] = [[]];
  for (const n of names) combos.splice(0, combos.length, ...combos.flatMap(c => dims[n]!.map(l => [...c, l])));
  const missing: MissingCell[] = [];
  let missingCells = 0;
  const kept: number[] = [];
  const values: Record<string, number>[][] = [];
  p.observations.forEach((obs, i) => {
    const row = combos.map(at => cell(i, at));
    const absent = row.flatMap((v, k) => (v ? [] : [k]));
    // An observation nobody rated on this grid is not part of the study, not a hole in it.
    if (absent.length === row.length) return;
    if (absent.length) {
      missingCells += absent.length;
      for (const k of absent) if (missing.length < 50) missing.push({ observation: obs, ...Object.fromEntries(names.map((n, j) => [n, combos[k]![j]!])) } as MissingCell);
      return;
    }
    kept.push(i);
    values.push(row as Record<string, number>[]);
  });
  const observed = kept.length + new Set(missing.map(m => m.observation)).size;
  const facets = ['observation', ...names];
  const levels = [kept.map(i => p.observations[i]!), ...names.map(n => dims[n]!)];
  const single = facets.filter((_, f) => levels[f]!.length === 1 && f > 0);
  const keepFacet = facets.map((f, i) => i === 0 || !single.includes(f));
  const measures: Record<string, Float64Array> = {};
  for (const m of Object.keys(values[0]?.[0] ?? {})) measures[m] = Float64Array.from(values.flatMap(r => r.map(c => c[m]!)));
  const design: DesignReport = {
    facets: facets.filter((_, i) => keepFacet[i]),
    fullyCrossed: missingCells === 0,
    cellsExpected: observed * combos.length,
    cellsUsed: kept.length * combos.length,
    missingCells,
    missing,
    droppedObservations: [...new Set(missing.map(m => m.observation))],
    singleLevelFacets: single,
  };
  if (kept.length < 2) design.reason = `only ${kept.length} observation(s) have every ${names.join(' x ')} cell; a decomposition needs at least 2`;
  else if (design.facets.length < 2) design.reason = 'every facet but observation has a single level';
  return { facets: design.facets, levels: levels.filter((_, i) => keepFacet[i]), measures, design };
}
