import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pairedTTest } from '../inference/ttest.js';
import { StatsInputError } from '../inference/errors.js';
import { cohensD, cohensDz } from './cohens-d.js';
import { oneWayAnova } from './one-way-anova.js';

type Num = number | null | 'inf' | '-inf';
const ref = JSON.parse(readFileSync(new URL('./__fixtures__/effects.json', import.meta.url), 'utf8')) as {
  pooled: { name: string; a: number[]; b: number[]; d: Num }[];
  paired: { name: string; a: number[]; b: number[]; dz: Num; t: Num; df: number; p: Num; low: Num; high: Num }[];
  anova: { name: string; groups: number[][]; f: Num; p: Num; dfBetween: number; dfWithin: number; etaSquared: Num }[];
};
/** null is NaN (undefined), "inf" is Infinity; anything else agrees to 1e-9 relative. */
const near = (actual: number, expected: Num, tol = 1e-9) => {
  if (expected === null) return expect(actual).toBeNaN();
  if (expected === 'inf' || expected === '-inf') return expect(actual).toBe(expected === 'inf' ? Infinity : -Infinity);
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
};

describe("Cohen's d vs the numpy reference", () => {
  for (const c of ref.pooled) it(`pooled d ${c.name}`, () => near(cohensD(c.a, c.b), c.d));
  for (const c of ref.paired) it(`paired d_z ${c.name}`, () => near(cohensDz(c.a, c.b), c.dz));

  it('is hand-checkable and refuses too little data', () => {
    // means 2 and 4, SS 2 + 2 over 4 df: pooled SD 1, d = -2.
    expect(cohensD([1, 2, 3], [3, 4, 5])).toBe(-2);
    expect(() => cohensD([1], [2])).toThrow(StatsInputError);
    expect(() => cohensDz([1], [2])).toThrow(/at least 2/);
    expect(() => cohensDz([1, 2], [1, 2, 3])).toThrow(/same length/);
  });
});

describe('paired t-test on learning-shaped data vs scipy.stats.ttest_rel', () => {
  for (const c of ref.paired) {
    it(c.name, () => {
      const r = pairedTTest(c.a, c.b);
      near(r.t, c.t);
      near(r.df, c.df);
      near(r.pValue, c.p);
      near(r.ciLow, c.low);
      near(r.ciHigh, c.high);
    });
  }
});

describe('one-way ANOVA vs scipy.stats.f_oneway', () => {
  for (const c of ref.anova) {
    it(c.name, () => {
      const r = oneWayAnova(c.groups);
      near(r.f, c.f);
      near(r.pValue, c.p);
      near(r.etaSquared, c.etaSquared);
      expect([r.dfBetween, r.dfWithin]).toEqual([c.dfBetween, c.dfWithin]);
    });
  }

  it('refuses one group, an empty group, and no within-group degree of freedom', () => {
    expect(() => oneWayAnova([[1, 2]])).toThrow(/at least 2 groups/);
    expect(() => oneWayAnova([[1, 2], []])).toThrow(/groups\[1\]/);
    expect(() => oneWayAnova([[1], [2]])).toThrow(/more values than groups/);
  });
});
