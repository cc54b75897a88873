import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { prepare } from '../prepare.js';
import { percentiles, seedFor } from '../resample.js';
import type { AnalysisTable, RatingRow } from '../table.js';
import { alignment } from './alignment.js';
import { dependence } from './dependence.js';
import { ensembles } from './ensembles.js';
import { permutationBaseline, quartileTest } from './robustness.js';

const o = { resamples: 200, seed: 5 };
const rating = (observation: string, rater: string, score: number | null, more: Partial<RatingRow> = {}): RatingRow =>
  ({ observation, item: 'q', rater, prompt: 'p', repeat: '', score, ...more });
function table(t: Partial<AnalysisTable> & Pick<AnalysisTable, 'ratings'>): AnalysisTable {
  return { experts: [], outcomes: new Map(), units: new Map(), scales: new Map([['q', { min: 1, max: 4 }], ['z', { min: 1, max: 4 }]]), baselines: [], raterWeights: new Map(), ...t };
}
const experts = (scores: number[], item = 'q') => scores.map((score, i) => ({ observation: `o${i}`, item, expert: 'e', score }));

describe('alignment, by hand', () => {
  it('tau-b (5 - 1) / 6 and r = 0.8 with the experts; tau -1 with the outcome; n counts pairs', () => {
    const t = table({
      ratings: [1, 2, 3, 4].map((s, i) => rating(`o${i}`, 'm', s)),
      experts: experts([1, 3, 2, 4]),
      outcomes: new Map([['o0', 4], ['o1', 3], ['o2', 2], ['o3', 1]]),
    });
    const [a] = alignment(prepare(t), o);
    expect(a!.tauExperts!.tau).toBeCloseTo(4 / 6, 14);
    expect(a!.pearsonExperts!.r).toBeCloseTo(0.8, 14);
    expect(a!.tauOutcome!.tau).toBe(-1);
    expect([a!.n, a!.nUnits]).toEqual([4, 4]);
  });

  it('repeats are averaged, unscored ratings are left out and counted, observations are averaged per unit', () => {
    const t = table({
      ratings: [
        rating('o0', 'm', 1, { repeat: '1' }), rating('o0', 'm', 3, { repeat: '2' }), rating('o1', 'm', 2), rating('o1', 'm', null, { repeat: '2', unscoredReason: 'x' }),
        rating('o2', 'm', 4), rating('o3', 'm', 4), rating('o4', 'm', 1), rating('o5', 'm', 2),
      ],
      units: new Map([['o0', 'u0'], ['o1', 'u0'], ['o2', 'u1'], ['o3', 'u1'], ['o4', 'u2'], ['o5', 'u3'], ['o6', 'u4']]),
      outcomes: new Map([['u0', 1], ['u1', 3], ['u2', 0], ['u3', 2]]),
    });
    const p = prepare(t);
    expect(Array.from(p.series[0]!.byObservation)).toEqual([2, 2, 4, 4, 1, 2]);
    // Unit means: u0 (2 + 2) / 2 = 2, u1 4, u2 1, u3 2 against outcomes 1, 3, 0, 2.
    expect(Array.from(p.series[0]!.byUnit)).toEqual([2, 4, 1, 2]);
    const [a] = alignment(p, o);
    expect([a!.ratings, a!.unscored, a!.nUnits]).toEqual([8, 1, 4]);
    expect(a!.tauExperts).toBeNull();
    // Pairs (2,1) (4,3) (1,0) (2,2): concordant 5, discordant 0, one pair tied in x only: 5 / sqrt(5 * 6).
    expect(a!.tauOutcome!.tau).toBeCloseTo(5 / Math.sqrt(30), 14);
  });
});

describe('robustness, by hand', () => {
  it('quartile test: bottom quartile (x <= 2.75) vs top (x >= 6.25) on the outcome', () => {
    const q = quartileTest(Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]), Float64Array.from([0, 1, 1, 1, 2, 2, 3, 5]))!;
    expect(q).toMatchObject({ nBottom: 2, nTop: 2, meanBottom: 0.5, meanTop: 4, difference: 3.5 });
    expect(quartileTest(Float64Array.from([1, 1, 1, 1, 2]), Float64Array.from([1, 2, 3, 4, 5]))).toBeNull();
  });
  it('permutation baseline: a perfect ranking is above every shuffle; a seed reproduces it', () => {
    const x = Array.from({ length: 10 }, (_, i) => i);
    const b = permutationBaseline(x, x, 199, 3)!;
    expect(b.tau).toBeCloseTo(1, 14);
    expect(b.above).toBe(true);
    expect(b.pValue).toBeLessThanOrEqual(3 / 200);
    expect(permutationBaseline(x, x, 199, 3)).toEqual(b);
    const flat = permutationBaseline(x, [0, 9, 1, 8, 2, 7, 3, 6, 4, 5], 199, 3)!;
    expect(flat.above).toBe(false);
  });
});

describe('ensembles, by hand', () => {
  const t = table({
    ratings: [[1, 2, 3, 1, 2, 4], [1, 2, 3, 2, 2, 4]].flatMap((scores, r) => scores.map((s, i) => rating(`o${i}`, r ? 'b' : 'a', s))),
    experts: experts([1, 2, 3, 2, 2, 4]),
    raterWeights: new Map([['a', 3], ['b', 1]]),
  });
  const e = ensembles(prepare(t), o);
  it('unanimous-vote keeps the observations where every rater agrees; weighted is the weighted mean', () => {
    expect(e.rows.find(r => r.kind === 'unanimous-vote')!.scored).toBe(5);
    const w = e.rows.find(r => r.kind === 'expertise-weighted')!;
    expect(w.scored).toBe(6);
    // Observation o3: (3 * 1 + 1 * 2) / 4 = 1.25; the others are unanimous, so tau equals tau with 1.25 at o3.
    expect(w.pearsonExperts!.n).toBe(6);
    expect(e.tests.map(x => `${x.kind}/${x.axis}`)).toEqual(['expertise-weighted/experts', 'unanimous-vote/experts']);
  });
  it('says why the weighted ensemble is missing when a rater has no weight', () => {
    const e2 = ensembles(prepare({ ...t, raterWeights: new Map([['a', 1]]) }), o);
    expect(e2.skipped).toEqual(['expertise-weighted: no weight for b; give every rater a weight']);
    expect(e2.rows.map(r => r.kind)).toEqual(['unanimous-vote']);
  });
});

describe('dependence, by hand', () => {
  it('classifies pairs: model-model within item, across items (different raters), model-expert', () => {
    const scores = [1, 2, 3, 4, 1, 2, 4, 3];
    const ratings = ['q', 'z'].flatMap(item => ['a', 'b'].flatMap(r => scores.map((s, i) => rating(`o${i}`, r, r === 'a' ? s : 5 - s, { item }))));
    const d = dependence(prepare(table({ ratings, experts: [...experts(scores, 'q'), ...experts(scores, 'z')] })), o);
    expect(d.summaries.map(s => [s.type, s.pairs])).toEqual([['model-model within item', 2], ['model-model across items', 2], ['model-expert', 4]]);
    // b = 5 - a is an exact function of a: dCor^2 = 1.
    expect(d.withinItem[0]!.matrix.values[0]![1]).toBeCloseTo(1, 12);
    expect(d.acrossItems.labels).toEqual(['a · q', 'b · q', 'experts · q', 'a · z', 'b · z', 'experts · z']);
  });
});

describe('decomposition reporting', () => {
  it('says plainly when too few observations have every cell', () => {
    const r = analyze(table({ ratings: [rating('o0', 'a', 1), rating('o0', 'b', 2), rating('o1', 'a', 1)], experts: experts([1, 2]) }), { resamples: 100, shareResamples: 100 });
    expect(r.decomposition.squaredError).toBeNull();
    expect(r.decomposition.design.missing).toEqual([{ observation: 'o1', item: 'q', rater: 'b', prompt: 'p' }]);
    expect(r.notes).toContain('Error decomposition not computed: only 1 observation(s) have every item x rater x prompt cell; a decomposition needs at least 2.');
    expect(r.notes).toContain('No outcomes were given (--outcomes): tau with the outcome, slopes and the quartile test are not computed.');
  });
});

describe('resampling helpers', () => {
  it('percentiles use numpy linear quantiles and skip undefined resamples', () => {
    const p = percentiles(Float64Array.from([...Array.from({ length: 101 }, (_, i) => i), NaN]));
    expect(p).toEqual({ low90: 5, high90: 95, low95: 2.5, high95: 97.5, undefinedResamples: 1 });
  });
  it('seeds per analysis are stable and differ by label', () => {
    expect(seedFor(1, 'a')).toBe(seedFor(1, 'a'));
    expect(seedFor(1, 'a')).not.toBe(seedFor(1, 'b'));
    expect(Number.isSafeInteger(seedFor(20260301, 'x'))).toBe(true);
  });
});
