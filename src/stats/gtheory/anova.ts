import type { CodedDesign } from './design.js';

/** One effect of the design: a nesting-closed set of facets, as bit mask and indices. */
export interface Effect {
  mask: number;
  /** Facet indices in `facets` order. */
  members: number[];
  /** Members that no other member is nested in (Brennan's "primary" indices). */
  primary: number[];
  /** Members present only because something in the effect is nested in them. */
  nestingOnly: number[];
}

export interface AnovaTable {
  effects: Effect[];
  df: number[];
  /** Brennan's T terms on the raw scores: sum over the effect's cells of n_cell * mean^2. */
  T: number[];
  ss: number[];
  ms: number[];
  /** coef[a][b]: multiplier of sigma^2_b in E[MS_a] (0 unless b contains a). */
  coef: number[][];
  grandMean: number;
  /** T(mu) = N * grand mean^2. */
  tMean: number;
}

/**
 * All nesting-closed subsets of the facets (an effect containing a nested facet also contains what
 * it is nested in), ordered by size, then lexicographically by facet position.
 */
export function enumerateEffects(design: Pick<CodedDesign, 'facets' | 'ancestors'>): Effect[] {
  const k = design.facets.length;
  const ancestorMask = design.ancestors.map(list => list.reduce((m, name) => m | (1 << design.facets.indexOf(name)), 0));
  const effects: Effect[] = [];
  for (let mask = 1; mask < 1 << k; mask++) {
    const members = [...Array(k).keys()].filter(f => mask & (1 << f));
    if (members.some(f => (ancestorMask[f]! & mask) !== ancestorMask[f])) continue;
    const nestingMask = members.reduce((m, f) => m | ancestorMask[f]!, 0);
    effects.push({
      mask,
      members,
      primary: members.filter(f => !(nestingMask & (1 << f))),
      nestingOnly: members.filter(f => nestingMask & (1 << f)),
    });
  }
  // Brennan's order: by number of primary indices, then size (so r:t comes before p x t), then position.
  effects.sort((a, b) =>
    a.primary.length - b.primary.length || a.members.length - b.members.length || compareLex(a.members, b.members));
  return effects;
}

function compareLex(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Random-effects ANOVA of a balanced design with one observation per cell (Brennan 2001, ch. 3 and
 * 7; Cornfield & Tukey 1956 rules): one pass over the cells per effect accumulates its marginal
 * sums with integer cell codes; SS by inclusion-exclusion of T terms over the primary facets;
 * df = prod over primary (n - 1) * prod over nesting-only n; E[MS_a] = sum over effects b
 * containing a of (prod of n over facets not in b) sigma^2_b.
 * T terms are formed on scores centred at the grand mean (then shifted back by N mean^2), so SS
 * does not lose digits to large means.
 */
export function anovaTable(design: CodedDesign): AnovaTable {
  const { n: N, sizes, codes } = design;
  const effects = enumerateEffects(design);
  let total = 0;
  for (let c = 0; c < N; c++) total += design.y[c]!;
  const grandMean = total / N;
  const yc = new Float64Array(N);
  for (let c = 0; c < N; c++) yc[c] = design.y[c]! - grandMean;
  let residualSum = 0;
  for (let c = 0; c < N; c++) residualSum += yc[c]!;
  const tCentredEmpty = (residualSum * residualSum) / N;

  const tCentred = new Map<number, number>([[0, tCentredEmpty]]);
  const idx = new Uint32Array(N);
  for (const e of effects) {
    let cells = 1;
    idx.fill(0);
    for (const f of e.members) {
      const code = codes[f]!;
      const size = sizes[f]!;
      for (let c = 0; c < N; c++) idx[c] = idx[c]! * size + code[c]!;
      cells *= size;
    }
    const sums = new Float64Array(cells);
    for (let c = 0; c < N; c++) { const j = idx[c]!; sums[j] = sums[j]! + yc[c]!; }
    const perCell = N / cells;
    let t = 0;
    for (let j = 0; j < cells; j++) t += sums[j]! * sums[j]!;
    tCentred.set(e.mask, t / perCell);
  }

  return finishTable(effects, sizes, tCentred, N, grandMean);
}

/**
 * The ANOVA table from the T terms of the centred scores (keyed by effect mask, 0 = grand mean):
 * SS by inclusion-exclusion over the primary facets, df, MS and the EMS coefficients.
 */
export function finishTable(effects: Effect[], sizes: readonly number[], tCentred: ReadonlyMap<number, number>, N: number, grandMean: number): AnovaTable {
  const tMean = N * grandMean * grandMean;
  const df: number[] = [];
  const ss: number[] = [];
  const ms: number[] = [];
  const T: number[] = [];
  for (const e of effects) {
    let s = 0;
    const p = e.primary.length;
    for (let sub = 0; sub < 1 << p; sub++) {
      let mask = e.mask;
      let bits = 0;
      for (let j = 0; j < p; j++) {
        if (sub & (1 << j)) {
          mask &= ~(1 << e.primary[j]!);
          bits++;
        }
      }
      s += (bits % 2 ? -1 : 1) * tCentred.get(mask)!;
    }
    let d = 1;
    for (const f of e.primary) d *= sizes[f]! - 1;
    for (const f of e.nestingOnly) d *= sizes[f]!;
    df.push(d);
    ss.push(s);
    ms.push(d > 0 ? s / d : Number.NaN);
    T.push(tCentred.get(e.mask)! + tMean);
  }
  const coef = effects.map(a =>
    effects.map(b => {
      if ((b.mask & a.mask) !== a.mask) return 0;
      let c = 1;
      for (let f = 0; f < sizes.length; f++) if (!(b.mask & (1 << f))) c *= sizes[f]!;
      return c;
    }),
  );
  return { effects, df, T, ss, ms, coef, grandMean, tMean };
}

/**
 * ANOVA (expected-mean-squares) estimates: solve E[MS] = MS from the highest-order effect down.
 * Negative estimates are kept as estimated and used as such for the lower effects (Brennan 2001,
 * 3.4: the "set to zero" rule applies to reporting and D studies, not to the solving).
 */
export function emsEstimates(table: AnovaTable): number[] {
  const m = table.effects.length;
  const est = new Array<number>(m).fill(0);
  // Larger effects first: every effect containing a is solved before a.
  const order = [...Array(m).keys()].sort((a, b) => table.effects[b]!.members.length - table.effects[a]!.members.length);
  for (const a of order) {
    let rest = table.ms[a]!;
    for (let b = 0; b < m; b++) if (b !== a) rest -= table.coef[a]![b]! * est[b]!;
    est[a] = rest / table.coef[a]![a]!;
  }
  return est;
}
