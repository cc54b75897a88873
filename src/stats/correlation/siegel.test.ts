import { describe, expect, it } from 'vitest';
import { expectClose, loadJson } from './__fixtures__/support.js';
import { siegel } from './siegel.js';

interface ConformanceCase {
  name: string;
  x: number[] | null;
  y: number[];
  scipy_1_17_1: { slope: number; intercept_hierarchical: number; intercept_separate: number };
}
const conformance = loadJson<{ cases: ConformanceCase[] }>(import.meta.url, '../../../test/conformance/siegel_repeated_medians.json');
// The file's tolerance: 1e-12 absolute.
const TOL = { abs: 1e-12 };
const xOf = (c: { x: number[] | null; y: number[] }): number[] => c.x ?? c.y.map((_, i) => i);

describe('siegel conformance (test/conformance/siegel_repeated_medians.json)', () => {
  it('has the 7 documented cases', () => {
    expect(conformance.cases).toHaveLength(7);
  });
  for (const c of conformance.cases) {
    it(c.name, () => {
      const ref = c.scipy_1_17_1;
      const h = siegel(xOf(c), c.y);
      expectClose(h.slope, ref.slope, TOL, 'slope');
      expectClose(h.intercept, ref.intercept_hierarchical, TOL, 'intercept (hierarchical)');
      const s = siegel(xOf(c), c.y, { method: 'separate' });
      expectClose(s.slope, ref.slope, TOL, 'slope (separate run)');
      expectClose(s.intercept, ref.intercept_separate, TOL, 'intercept (separate)');
    });
  }
});

interface ExtraCase {
  name: string;
  x: number[];
  y: number[];
  slope: number;
  intercept_hierarchical: number;
  intercept_separate: number;
}
const extra = loadJson<{ siegelslopes: ExtraCase[] }>(import.meta.url, './__fixtures__/slopes_extra.json');

describe('siegel vs scipy.stats.siegelslopes on more inputs (__fixtures__/slopes_extra.json)', () => {
  for (const c of extra.siegelslopes) {
    it(c.name, () => {
      const h = siegel(c.x, c.y);
      expectClose(h.slope, c.slope, TOL, 'slope');
      expectClose(h.intercept, c.intercept_hierarchical, TOL, 'intercept (hierarchical)');
      expectClose(siegel(c.x, c.y, { method: 'separate' }).intercept, c.intercept_separate, TOL, 'intercept (separate)');
    });
  }
});

describe('conventions and errors', () => {
  it('returns NaN when every x is equal (scipy 1.17 returns uninitialised values there)', () => {
    const r = siegel([3, 3, 3, 3], [1, 2, 3, 4], { method: 'separate' });
    expect(r.slope).toBeNaN();
    expect(r.intercept).toBeNaN();
    expect(siegel([3, 3, 3], [1, 2, 3]).intercept).toBeNaN();
  });
  it('recovers the line when 4 of 11 points are wild outliers', () => {
    const x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const y = x.map(v => 3 * v + 1);
    [y[7], y[8], y[9], y[10]] = [500, -300, 900, 0];
    expect(siegel(x, y)).toEqual({ slope: 3, intercept: 1 });
  });
  it('rejects a bad method, mismatched lengths and non-finite values', () => {
    expect(() => siegel([1, 2], [1, 2], { method: 'joint' as 'separate' })).toThrow(/'hierarchical' or 'separate'/);
    expect(() => siegel([1, 2, 3], [1, 2])).toThrow(/x has 3 values but y has 2/);
    expect(() => siegel([1, -Infinity], [1, 2])).toThrow(expect.objectContaining({ problem: 'not-finite', index: 1 }));
  });
});
