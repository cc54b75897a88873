import { describe, expect, it } from 'vitest';
import { expectClose, generate, loadJson, seededUniform } from './__fixtures__/support.js';
import { roundHalfEven, theilSen } from './theil-sen.js';

interface ConformanceCase {
  name: string;
  x: number[] | null;
  y: number[];
  alpha: number;
  scipy_1_17_1: { slope: number; intercept_separate: number; intercept_joint: number; low_slope: number; high_slope: number };
}
const conformance = loadJson<{ cases: ConformanceCase[] }>(import.meta.url, '../../../test/conformance/theil_sen.json');
// The file's tolerance: 1e-12 absolute.
const TOL = { abs: 1e-12 };
/** The file's convention: x = arange(n) when x is null. */
const xOf = (c: { x: number[] | null; y: number[] }): number[] => c.x ?? c.y.map((_, i) => i);

describe('theilSen conformance (test/conformance/theil_sen.json)', () => {
  it('has the 6 documented cases', () => {
    expect(conformance.cases).toHaveLength(6);
  });
  for (const c of conformance.cases) {
    it(c.name, () => {
      const ref = c.scipy_1_17_1;
      const separate = theilSen(xOf(c), c.y, { alpha: c.alpha });
      expectClose(separate.slope, ref.slope, TOL, 'slope');
      expectClose(separate.intercept, ref.intercept_separate, TOL, 'intercept (separate)');
      expectClose(separate.low, ref.low_slope, TOL, 'low');
      expectClose(separate.high, ref.high_slope, TOL, 'high');
      const joint = theilSen(xOf(c), c.y, { alpha: c.alpha, method: 'joint' });
      expectClose(joint.intercept, ref.intercept_joint, TOL, 'intercept (joint)');
      expect(joint.slope).toBe(separate.slope);
    });
  }
});

interface ExtraCase {
  name: string;
  x: number[];
  y: number[];
  alpha: number;
  slope: number | null;
  intercept_separate: number | null;
  intercept_joint: number | null;
  low: number | null;
  high: number | null;
}
const extra = loadJson<{ theilslopes: ExtraCase[] }>(import.meta.url, './__fixtures__/slopes_extra.json');

describe('theilSen vs scipy.stats.theilslopes on more inputs (__fixtures__/slopes_extra.json)', () => {
  for (const c of extra.theilslopes) {
    it(c.name, () => {
      const r = theilSen(c.x, c.y, { alpha: c.alpha });
      expectClose(r.slope, c.slope, TOL, 'slope');
      expectClose(r.intercept, c.intercept_separate, TOL, 'intercept (separate)');
      expectClose(r.low, c.low, TOL, 'low');
      expectClose(r.high, c.high, TOL, 'high');
      expectClose(theilSen(c.x, c.y, { alpha: c.alpha, method: 'joint' }).intercept, c.intercept_joint, TOL, 'intercept (joint)');
    });
  }
});

describe('conventions', () => {
  it('rounds interval ranks half to even, like numpy', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 2.5001].map(roundHalfEven)).toEqual([0, 2, 2, -0, -2, -2, 2, 3]);
  });
  it('uses the mean of the two middle slopes (not the lower middle) for an even count', () => {
    // Slopes 1, 2, 3, 4 (x pairs (0,1), (0,2), (0,3), (0,4) after dropping equal-x pairs).
    const r = theilSen([0, 1, 1, 1, 1], [0, 1, 2, 3, 4].map((v, i) => (i === 0 ? 0 : v)));
    expect(r.slope).toBe(2.5);
  });
  it('treats alpha and 1 - alpha as the same interval', () => {
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    const y = [2, 1, 4, 3, 7, 5, 9, 8, 12];
    expect(theilSen(x, y, { alpha: 0.1 })).toEqual(theilSen(x, y, { alpha: 0.9 }));
  });
});

describe('input errors', () => {
  it('rejects bad alpha, bad method, NaN and too few points', () => {
    expect(() => theilSen([1, 2], [1, 2], { alpha: 1 })).toThrow(/alpha must be strictly between 0 and 1/);
    expect(() => theilSen([1, 2], [1, 2], { alpha: 0 })).toThrow(expect.objectContaining({ problem: 'bad-option', argument: 'alpha' }));
    expect(() => theilSen([1, 2], [1, 2], { method: 'hierarchical' as 'joint' })).toThrow(/'separate' or 'joint'/);
    expect(() => theilSen([1, 2, 3], [1, NaN, 2])).toThrow(/y\[1\] is NaN/);
    expect(() => theilSen([1], [1])).toThrow(/at least 2/);
  });
});

describe('sampled-bracket path (more than 200,000 slopes)', () => {
  it('gives exactly the median of all slopes, and interval ends that are slopes around it', () => {
    const u = seededUniform(77);
    const x = generate(800, () => Math.floor(u() * 50));
    const y = x.map(v => 0.5 * v + 20 * u());
    const slopes: number[] = [];
    for (let i = 0; i < x.length; i++) for (let j = 0; j < x.length; j++) if (x[j]! > x[i]!) slopes.push((y[j]! - y[i]!) / (x[j]! - x[i]!));
    slopes.sort((a, b) => a - b);
    expect(slopes.length).toBeGreaterThan(200_000);
    const h = slopes.length >> 1;
    const r = theilSen(x, y, { alpha: 0.9 });
    expect(r.slope).toBe(slopes.length % 2 ? slopes[h]! : (slopes[h - 1]! + slopes[h]!) / 2);
    expect(slopes).toContain(r.low);
    expect(slopes).toContain(r.high);
    expect(r.low).toBeLessThan(r.slope);
    expect(r.high).toBeGreaterThan(r.slope);
  });
});
