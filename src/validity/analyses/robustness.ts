import { createRng, kendallTauB, quantileSorted, siegel, tauBResampler, theilSen, welchTTest } from '../../stats/index.js';
import { completePairs, type Prepared } from '../prepare.js';
import { seedFor } from '../resample.js';
import { MIN_PAIRS, type ResampleOptions } from './tau.js';

export interface PermutationBaseline {
  tau: number;
  /** 95th percentile of tau over shuffled ratings. */
  permuted95: number;
  /** (1 + #{|tau*| >= |tau|}) / (B + 1): two-sided permutation p-value. */
  pValue: number;
  /** tau above the 95th percentile of the shuffled taus. */
  above: boolean;
  n: number;
}

export interface QuartileTest {
  /** Units whose rating is at or below the first quartile, and at or above the third. */
  nBottom: number;
  nTop: number;
  meanBottom: number;
  meanTop: number;
  /** Welch t-test of the outcome, top minus bottom quartile. */
  difference: number;
  low95: number;
  high95: number;
  pValue: number;
}

export interface RobustnessRow {
  rater: string;
  prompt: string;
  item: string;
  /** Slopes of the outcome on the unit-mean rating; null without outcomes. */
  theilSen: { slope: number; intercept: number; low95: number; high95: number; n: number } | null;
  siegel: { slope: number; intercept: number; n: number } | null;
  /** Null when the quartiles coincide (too few distinct ratings) or a group has fewer than 2 units. */
  quartile: QuartileTest | null;
  permutationExperts: PermutationBaseline | null;
  permutationOutcome: PermutationBaseline | null;
}

export function robustness(p: Prepared, o: ResampleOptions): RobustnessRow[] {
  return p.series.map(s => {
    const label = `${s.rater}|${s.prompt}|${s.item}`;
    const u = completePairs(s.byUnit, p.outcome);
    const enough = u.x.length >= MIN_PAIRS && !isConstant(u.x);
    const ts = enough ? theilSen(u.x, u.y, { alpha: 0.95 }) : null;
    const sg = enough ? siegel(u.x, u.y) : null;
    const experts = p.expertMean.get(s.item)?.byObservation;
    return {
      rater: s.rater, prompt: s.prompt, item: s.item,
      theilSen: ts && { slope: ts.slope, intercept: ts.intercept, low95: ts.low, high95: ts.high, n: u.x.length },
      siegel: sg && { slope: sg.slope, intercept: sg.intercept, n: u.x.length },
      quartile: enough ? quartileTest(u.x, u.y) : null,
      permutationExperts: experts ? permutationBaseline(s.byObservation, experts, o.resamples, seedFor(o.seed, `perm-experts|${label}`)) : null,
      permutationOutcome: permutationBaseline(s.byUnit, p.outcome, o.resamples, seedFor(o.seed, `perm-outcome|${label}`)),
    };
  });
}

/** Top vs bottom quartile of the ratings, compared on the outcome (quartiles: numpy 'linear'). */
export function quartileTest(rating: Float64Array, outcome: Float64Array): QuartileTest | null {
  const s = rating.slice().sort();
  const q1 = quantileSorted(s, 0.25);
  const q3 = quantileSorted(s, 0.75);
  if (!(q3 > q1)) return null;
  const bottom = outcome.filter((_, i) => rating[i]! <= q1);
  const top = outcome.filter((_, i) => rating[i]! >= q3);
  if (bottom.length < 2 || top.length < 2) return null;
  const t = welchTTest(top, bottom);
  const mean = (v: Float64Array) => v.reduce((a, b) => a + b, 0) / v.length;
  return {
    nBottom: bottom.length, nTop: top.length, meanBottom: mean(bottom), meanTop: mean(top),
    difference: t.meanDifference, low95: t.ciLow, high95: t.ciHigh, pValue: t.pValue,
  };
}

/** tau against the distribution of tau with the ratings shuffled (Fisher-Yates with the seeded PRNG). */
export function permutationBaseline(xAll: ArrayLike<number>, yAll: ArrayLike<number>, resamples: number, seed: number): PermutationBaseline | null {
  const { x, y } = completePairs(xAll, yAll);
  if (x.length < MIN_PAIRS) return null;
  const tau = kendallTauB(x, y).tau;
  if (Number.isNaN(tau)) return null;
  const rng = createRng(seed);
  const resampler = tauBResampler(x, y);
  const order = Uint32Array.from({ length: x.length }, (_, i) => i);
  const shuffled = order.slice();
  const dist = new Float64Array(resamples);
  let extreme = 0;
  for (let b = 0; b < resamples; b++) {
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = rng.nextInt(i + 1);
      const t = shuffled[i]!; shuffled[i] = shuffled[j]!; shuffled[j] = t;
    }
    dist[b] = resampler.tau(shuffled, order);
    if (Math.abs(dist[b]!) >= Math.abs(tau) - 1e-12) extreme++;
  }
  const permuted95 = quantileSorted(dist.sort(), 0.95);
  return { tau, permuted95, pValue: (1 + extreme) / (resamples + 1), above: tau > permuted95, n: x.length };
}

function isConstant(v: Float64Array): boolean {
  return v.every(x => x === v[0]);
}
