import { fSf } from '../inference/distributions.js';
import { finiteArray, StatsInputError, type NumericArray } from '../inference/errors.js';

export interface AnovaResult {
  /** F = (SS_between / df_between) / (SS_within / df_within); Infinity when only the groups differ, NaN when all values are equal. */
  f: number;
  dfBetween: number;
  dfWithin: number;
  /** Upper tail of F(df_between, df_within): 0 for F = Infinity, NaN with F. */
  pValue: number;
  /** SS_between / SS_total; NaN when all values are equal (no variance to explain). */
  etaSquared: number;
  /** Values in all. */
  n: number;
}

/**
 * One-way ANOVA across groups, as scipy.stats.f_oneway (F and p), with eta^2 = SS_between /
 * SS_total. Needs two groups, none empty, and more values than groups (df_within >= 1).
 */
export function oneWayAnova(groups: ReadonlyArray<NumericArray>): AnovaResult {
  if (groups.length < 2) throw new StatsInputError('groups', `needs at least 2 groups, got ${groups.length}`);
  const gs = groups.map((g, i) => finiteArray(`groups[${i}]`, g, 1));
  const n = gs.reduce((s, g) => s + g.length, 0);
  const k = gs.length;
  if (n <= k) throw new StatsInputError('groups', `needs more values than groups (${k}), got ${n}`);
  let grand = 0;
  for (const g of gs) for (const v of g) grand += v;
  grand /= n;
  let ssBetween = 0;
  let ssWithin = 0;
  for (const g of gs) {
    let m = 0;
    for (const v of g) m += v;
    m /= g.length;
    ssBetween += g.length * (m - grand) ** 2;
    for (const v of g) ssWithin += (v - m) ** 2;
  }
  const dfBetween = k - 1;
  const dfWithin = n - k;
  const ssTotal = ssBetween + ssWithin;
  if (ssTotal === 0) return { f: NaN, dfBetween, dfWithin, pValue: NaN, etaSquared: NaN, n };
  const f = ssWithin === 0 ? Infinity : (ssBetween / dfBetween) / (ssWithin / dfWithin);
  return { f, dfBetween, dfWithin, pValue: f === Infinity ? 0 : fSf(f, dfBetween, dfWithin), etaSquared: ssBetween / ssTotal, n };
}
