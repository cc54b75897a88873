import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pairedTTest, welchTTest } from './ttest.js';
import { wilsonInterval } from './wilson.js';

interface TRef { t: number; df: number; p: number; low: number; high: number }
const ref = JSON.parse(readFileSync(new URL('./__fixtures__/inference.json', import.meta.url), 'utf8')) as {
  ttests: { name: string; a: number[]; b: number[]; level: number; paired: TRef | null; welch: TRef }[];
  wilson: { successes: number; n: number; level: number; low: number; high: number }[];
};
const near = (a: number, b: number, tol = 1e-9) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

describe('t-tests vs scipy', () => {
  for (const c of ref.ttests) {
    if (c.paired) {
      const p = c.paired;
      it(`ttest_rel ${c.name} level=${c.level}`, () => {
        const r = pairedTTest(c.a, c.b, { level: c.level });
        near(r.t, p.t);
        near(r.df, p.df);
        near(r.pValue, p.p);
        near(r.ciLow, p.low);
        near(r.ciHigh, p.high);
      });
    }
    it(`ttest_ind(equal_var=False) ${c.name} level=${c.level}`, () => {
      const r = welchTTest(c.a, c.b, { level: c.level });
      near(r.t, c.welch.t);
      near(r.df, c.welch.df);
      near(r.pValue, c.welch.p);
      near(r.ciLow, c.welch.low);
      near(r.ciHigh, c.welch.high);
    });
  }

  it('zero-variance differences follow scipy 1.17 (t = inf, p = 0; 0/0 -> NaN; Welch df 0/0 -> 1)', () => {
    expect(pairedTTest([2, 3, 4], [1, 2, 3]).t).toBe(Number.POSITIVE_INFINITY);
    expect(pairedTTest([2, 3, 4], [1, 2, 3]).pValue).toBe(0);
    expect(pairedTTest([1, 2], [1, 2]).t).toBeNaN();
    // scipy 1.17: both samples constant -> the 0/0 Welch df becomes 1; t = -inf, p = 0, CI [-1, -1]
    expect(welchTTest([1, 1], [2, 2])).toMatchObject({ t: -Infinity, df: 1, pValue: 0, ciLow: -1, ciHigh: -1 });
    const same = welchTTest([3, 3, 3], [3, 3]);
    expect([same.t, same.pValue, same.df, same.ciLow, same.ciHigh]).toEqual([NaN, NaN, 1, 0, 0]);
  });

  it('rejects bad input, naming the argument', () => {
    expect(() => pairedTTest([1, 2, 3], [1, 2])).toThrow(/^b: must have the same length/);
    expect(() => welchTTest([1], [1, 2])).toThrow(/^a: needs at least 2/);
    expect(() => welchTTest([1, 2], [1, Number.POSITIVE_INFINITY])).toThrow(/^b\[1\]/);
    expect(() => pairedTTest([1, 2], [3, 4], { level: 1 })).toThrow(/^level/);
  });
});

describe('wilsonInterval vs the statsmodels formula', () => {
  for (const c of ref.wilson) {
    it(`${c.successes}/${c.n} level=${c.level}`, () => {
      const r = wilsonInterval(c.successes, c.n, c.level);
      near(r.low, Math.max(0, c.low), 1e-12);
      near(r.high, Math.min(1, c.high), 1e-12);
      expect(r.estimate).toBe(c.successes / c.n);
    });
  }
  it('rejects bad input', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(/^successes/);
    expect(() => wilsonInterval(1.5, 2)).toThrow(/^successes/);
    expect(() => wilsonInterval(0, 0)).toThrow(/^n/);
    expect(() => wilsonInterval(1, 2, 0)).toThrow(/^level/);
  });
});
