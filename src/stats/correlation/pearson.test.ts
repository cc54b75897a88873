import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pearson } from './index.js';

const fixture = JSON.parse(readFileSync(new URL('./__fixtures__/pearson.json', import.meta.url), 'utf8')) as {
  cases: { name: string; x: number[]; y: number[]; r: number; pValue: number }[];
};

describe('pearson (scipy.stats.pearsonr reference, 1e-9)', () => {
  for (const c of fixture.cases) {
    it(c.name, () => {
      const got = pearson(c.x, c.y);
      expect(Math.abs(got.r - c.r)).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(got.pValue - c.pValue)).toBeLessThanOrEqual(1e-9 * Math.max(1, c.pValue));
      expect(got.n).toBe(c.x.length);
    });
  }
  it('hand case: r = 0.8 for x = 1..5, y = 2,1,4,3,5', () => expect(pearson([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]).r).toBeCloseTo(0.8, 14));
  it('constant input is NaN; n = 2 has p = 1 as scipy', () => {
    expect(pearson([1, 1, 1], [1, 2, 3]).r).toBeNaN();
    expect(pearson([1, 2], [3, 5])).toEqual({ r: 1, pValue: 1, n: 2 });
  });
});
