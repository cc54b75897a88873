import { bootstrapCI, cohensDz, pairedTTest } from '../../stats/index.js';
import { INJECTION_FAMILIES, type InjectionFamily } from './types.js';

/** What an injected error can lower: the judges' D1 and D2, the D3 visual score, the posttest and the gain. */
export const DIMENSIONS = ['d1', 'd2', 'd3', 'post', 'gain'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The dimension each family is built to lower (integrity: D1's "no answer leakage"). */
export const TARGETED: Readonly<Record<InjectionFamily, readonly Dimension[]>> = {
  knowledge: ['d1'], pedagogy: ['d2'], visual: ['d3'], integrity: ['d1'],
};

/** One deck scored before and after one injection (same unit, generator, learner and judges). */
export interface InjectionPair {
  family: InjectionFamily;
  original: Partial<Record<Dimension, number>>;
  injected: Partial<Record<Dimension, number>>;
}

/** How much one family lowered one dimension: drop = original - injected (negative: it rose). */
export interface DimensionDrop {
  dimension: Dimension;
  targeted: boolean;
  /** Pairs with the dimension scored on both sides. */
  n: number;
  meanDrop: number;
  /** Percentile bootstrap interval of the mean drop over pairs; NaN below two pairs. */
  low: number;
  high: number;
  /** Paired two-tailed t-test of original vs injected (scipy ttest_rel); NaN below two pairs. */
  t: number;
  df: number;
  pValue: number;
  /** Standardised drop, Cohen's d_z; NaN when every drop is equal or below two pairs. */
  dz: number;
}

export interface FamilyEffect {
  family: InjectionFamily;
  pairs: number;
  dimensions: DimensionDrop[];
  /** Mean d_z over the targeted / the other dimensions (those with a defined d_z): does the family hit what it aims at? */
  targetedMeanDz: number;
  nonTargetedMeanDz: number;
}

const meanOf = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

function dropOf(dimension: Dimension, family: InjectionFamily, pairs: InjectionPair[], o: { seed: number; resamples: number; level: number }): DimensionDrop {
  const both = pairs.filter(p => Number.isFinite(p.original[dimension]) && Number.isFinite(p.injected[dimension]));
  const a = both.map(p => p.original[dimension]!);
  const b = both.map(p => p.injected[dimension]!);
  const drops = a.map((x, i) => x - b[i]!);
  const base = { dimension, targeted: TARGETED[family].includes(dimension), n: both.length, meanDrop: meanOf(drops) };
  if (both.length < 2) return { ...base, low: NaN, high: NaN, t: NaN, df: NaN, pValue: NaN, dz: NaN };
  const ci = bootstrapCI(drops, 'mean', { seed: o.seed, resamples: o.resamples, level: o.level });
  const t = pairedTTest(a, b, { level: o.level });
  return { ...base, low: ci.low, high: ci.high, t: t.t, df: t.df, pValue: t.pValue, dz: cohensDz(a, b) };
}

/**
 * Which dimension each error family lowers: per family and dimension, the mean drop with its
 * seeded bootstrap interval (2,000 resamples, 95% unless told) and a paired two-tailed t-test,
 * targeted dimensions marked. Families with no pair are left out.
 */
export function analyseInjections(pairs: readonly InjectionPair[], o: { seed: number; resamples?: number; level?: number }): FamilyEffect[] {
  const settings = { seed: o.seed, resamples: o.resamples ?? 2000, level: o.level ?? 0.95 };
  return INJECTION_FAMILIES.flatMap(family => {
    const mine = pairs.filter(p => p.family === family);
    if (mine.length === 0) return [];
    const dimensions = DIMENSIONS.map(d => dropOf(d, family, mine, settings));
    const dzOf = (targeted: boolean) => meanOf(dimensions.filter(d => d.targeted === targeted && !Number.isNaN(d.dz)).map(d => d.dz));
    return [{ family, pairs: mine.length, dimensions, targetedMeanDz: dzOf(true), nonTargetedMeanDz: dzOf(false) }];
  });
}
