import { describe, expect, it } from 'vitest';
import { expectClose, loadJson } from './__fixtures__/support.js';
import { CorrelationInputError } from './errors.js';
import { averageRanks } from './ranks.js';
import { spearman } from './spearman.js';

interface Case {
  name: string;
  x: number[];
  y: number[];
  rho: number | null;
  p: number | null;
}
const fx = loadJson<{ cases: Case[] }>(import.meta.url, './__fixtures__/spearman.json');

describe('spearman vs scipy.stats.spearmanr (__fixtures__/spearman.json)', () => {
  for (const c of fx.cases) {
    it(c.name, () => {
      const r = spearman(c.x, c.y);
      expectClose(r.rho, c.rho, { abs: 1e-12 }, 'rho');
      expectClose(r.pValue, c.p, { abs: 1e-14, rel: 1e-9 }, 'p');
      expect(r.n).toBe(c.x.length);
    });
  }
});

describe('average ranks', () => {
  it('give tied values the mean of the ranks they span', () => {
    expect(Array.from(averageRanks(Float64Array.from([10, 20, 10, 30, 10, 20])))).toEqual([2, 4.5, 2, 6, 2, 4.5]);
  });
});

describe('spearman input errors', () => {
  it('rejects NaN, mismatched lengths and a single point', () => {
    expect(() => spearman([1, NaN], [1, 2])).toThrow(CorrelationInputError);
    expect(() => spearman([1, 2, 3], [1, 2])).toThrow(/x has 3 values but y has 2/);
    expect(() => spearman([1], [2])).toThrow(/spearman needs at least 2 paired observations/);
  });
  it('returns NaN for a constant input, as scipy does (with its ConstantInputWarning)', () => {
    const r = spearman([1, 2, 3], [4, 4, 4]);
    expect(r.rho).toBeNaN();
    expect(r.pValue).toBeNaN();
  });
});

describe('spearman at perfect agreement (scipy: rho = +/-1 exactly, p = 0)', () => {
  it('does not stop one ulp short of 1', () => {
    for (const n of [3, 5, 7, 9, 19, 32, 33, 41]) {
      const x = Array.from({ length: n }, (_, i) => i);
      expect(spearman(x, x)).toMatchObject({ rho: 1, pValue: 0 });
      expect(spearman(x, x.map(v => -v))).toMatchObject({ rho: -1, pValue: 0 });
    }
  });
});
