import { type AnalysisTable, unitOf } from './table.js';

/** One rater's ratings of one item under one prompt, as dense arrays over observations and units. */
export interface Series {
  rater: string;
  prompt: string;
  item: string;
  /** Mean over scored repeats per observation (index into Prepared.observations); NaN when none. */
  byObservation: Float64Array;
  /** Mean of byObservation over the unit's observations (NaN-free ones); NaN when none. */
  byUnit: Float64Array;
  /** Ratings in the file for this series, and how many were unscored. */
  ratings: number;
  unscored: number;
}

/** The table put on shared integer indices, once, for every analysis. */
export interface Prepared {
  table: AnalysisTable;
  observations: string[];
  units: string[];
  /** Unit index of each observation. */
  unitOfObservation: Uint32Array;
  items: string[];
  raters: string[];
  prompts: string[];
  experts: string[];
  /** Sorted by rater, prompt, item. */
  series: Series[];
  /** Per item: the experts' mean per observation and per unit (NaN when no expert rated it). */
  expertMean: Map<string, { byObservation: Float64Array; byUnit: Float64Array }>;
  /** Outcome per unit; NaN when the unit has none. */
  outcome: Float64Array;
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export function prepare(table: AnalysisTable): Prepared {
  const observations = sorted([...table.ratings.map(r => r.observation), ...table.experts.map(e => e.observation)]);
  const obsIndex = new Map(observations.map((o, i) => [o, i]));
  const units = sorted(observations.map(o => unitOf(table, o)));
  const unitIndex = new Map(units.map((u, i) => [u, i]));
  const unitOfObservation = Uint32Array.from(observations, o => unitIndex.get(unitOf(table, o))!);
  const toUnits = (byObs: Float64Array) => meanPerUnit(byObs, unitOfObservation, units.length);
  const meanOf = (groups: Map<string, number[][]>, key: string): Float64Array => {
    const cells = groups.get(key)!;
    return Float64Array.from(cells, c => (c.length ? c.reduce((a, b) => a + b, 0) / c.length : NaN));
  };

  const ratingCells = new Map<string, number[][]>();
  const counts = new Map<string, { ratings: number; unscored: number }>();
  for (const r of table.ratings) {
    const key = JSON.stringify([r.rater, r.prompt, r.item]);
    if (!ratingCells.has(key)) { ratingCells.set(key, observations.map(() => [])); counts.set(key, { ratings: 0, unscored: 0 }); }
    const c = counts.get(key)!;
    c.ratings++;
    if (r.score === null) c.unscored++;
    else ratingCells.get(key)![obsIndex.get(r.observation)!]!.push(r.score);
  }
  const series = [...ratingCells.keys()].sort().map((key): Series => {
    const [rater, prompt, item] = JSON.parse(key) as [string, string, string];
    const byObservation = meanOf(ratingCells, key);
    return { rater, prompt, item, byObservation, byUnit: toUnits(byObservation), ...counts.get(key)! };
  });

  const expertCells = new Map<string, number[][]>();
  for (const e of table.experts) {
    if (!expertCells.has(e.item)) expertCells.set(e.item, observations.map(() => []));
    expertCells.get(e.item)![obsIndex.get(e.observation)!]!.push(e.score);
  }
  const expertMean = new Map([...expertCells.keys()].sort().map(item => {
    const byObservation = meanOf(expertCells, item);
    return [item, { byObservation, byUnit: toUnits(byObservation) }] as const;
  }));
  return {
    table, observations, units, unitOfObservation,
    items: sorted([...table.ratings.map(r => r.item), ...table.experts.map(e => e.item)]),
    raters: sorted(table.ratings.map(r => r.rater)),
    prompts: sorted(table.ratings.map(r => r.prompt)),
    experts: sorted(table.experts.map(e => e.expert)),
    series,
    expertMean,
    outcome: Float64Array.from(units, u => table.outcomes.get(u) ?? NaN),
  };
}

/** The pairs (x_i, y_i) where both are present. */
export function completePairs(x: ArrayLike<number>, y: ArrayLike<number>): { x: Float64Array; y: Float64Array; index: Uint32Array } {
  const index: number[] = [];
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i]!) && !Number.isNaN(y[i]!)) index.push(i);
  return { x: Float64Array.from(index, i => x[i]!), y: Float64Array.from(index, i => y[i]!), index: Uint32Array.from(index) };
}

/** Mean of the present values per unit. */
export function meanPerUnit(byObservation: Float64Array, unitOfObservation: Uint32Array, units: number): Float64Array {
  const sum = new Float64Array(units);
  const count = new Float64Array(units);
  byObservation.forEach((v, i) => {
    if (Number.isNaN(v)) return;
    const u = unitOfObservation[i]!;
    sum[u] = sum[u]! + v;
    count[u] = count[u]! + 1;
  });
  return sum.map((s, u) => (count[u]! > 0 ? s / count[u]! : NaN));
}
