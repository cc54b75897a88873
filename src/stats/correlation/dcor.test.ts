import { describe, expect, it } from 'vitest';
import { expectClose, generate, loadJson, seededUniform } from './__fixtures__/support.js';
import { distanceCorrelationSq, distanceCovarianceSq, FAST_DCOR_THRESHOLD, type DistanceSample } from './dcor.js';

type Stats = Record<
  'u_dcov_sqr' | 'u_dvar_x_sqr' | 'u_dvar_y_sqr' | 'bcdcor_sqr' | 'v_dcov_sqr' | 'v_dvar_x_sqr' | 'v_dvar_y_sqr' | 'dcor_sqr',
  number | null
>;
interface Case {
  name: string;
  x: DistanceSample;
  y: DistanceSample;
  reference_numpy_naive: Stats;
}
const conformance = loadJson<{ cases: Case[] }>(import.meta.url, '../../../test/conformance/distance_correlation.json');
// The file's tolerance: 1e-9 relative. The absolute floor only matters for exact zeros.
const TOL = { rel: 1e-9, abs: 1e-15 };

function univariate(s: DistanceSample): boolean {
  const first = s[0];
  return typeof first === 'number' || (typeof first === 'object' && first !== null && first.length === 1);
}

describe('distance covariance / correlation conformance (test/conformance/distance_correlation.json)', () => {
  it('has the 12 documented cases', () => {
    expect(conformance.cases).toHaveLength(12);
  });
  for (const c of conformance.cases) {
    const methods = univariate(c.x) && univariate(c.y) ? (['naive', 'fast'] as const) : (['naive'] as const);
    for (const method of methods) {
      it(`${c.name} (${method})`, () => {
        const ref = c.reference_numpy_naive;
        const u = distanceCorrelationSq(c.x, c.y, { method });
        expect(u.method).toBe(method);
        expectClose(u.dcovSq, ref.u_dcov_sqr, TOL, 'U dcov^2');
        expectClose(u.dvarXSq, ref.u_dvar_x_sqr, TOL, 'U dvar^2(x)');
        expectClose(u.dvarYSq, ref.u_dvar_y_sqr, TOL, 'U dvar^2(y)');
        expectClose(u.dcorSq, ref.bcdcor_sqr, TOL, 'bias-corrected dcor^2');
        const v = distanceCorrelationSq(c.x, c.y, { biasCorrected: false, method });
        expectClose(v.dcovSq, ref.v_dcov_sqr, TOL, 'V dcov^2');
        expectClose(v.dvarXSq, ref.v_dvar_x_sqr, TOL, 'V dvar^2(x)');
        expectClose(v.dvarYSq, ref.v_dvar_y_sqr, TOL, 'V dvar^2(y)');
        expectClose(v.dcorSq, ref.dcor_sqr, TOL, 'V dcor^2');
        expectClose(distanceCovarianceSq(c.x, c.y, { method }).dcovSq, ref.u_dcov_sqr, TOL, 'distanceCovarianceSq');
      });
    }
  }
});

describe('O(n log n) path equals the O(n^2) definition', () => {
  const cases = [
    { n: 4, levels: 0, seed: 1 },
    { n: 5, levels: 2, seed: 2 },
    { n: 17, levels: 0, seed: 3 },
    { n: 100, levels: 5, seed: 4 },
    { n: 333, levels: 0, seed: 5 },
    { n: 1000, levels: 7, seed: 6 },
    { n: 2500, levels: 0, seed: 7 },
  ];
  for (const { n, levels, seed } of cases) {
    it(`n = ${n}, ${levels ? `${levels} levels (ties)` : 'continuous'}`, () => {
      const u = seededUniform(seed);
      const draw = () => (levels ? Math.floor(u() * levels) : 1e3 * (u() - 0.3));
      const x = generate(n, draw);
      // Dependent but not monotone, plus an outlier (10x the spread), so every term of the expansion matters.
      const y = x.map(v => (levels ? (v * v) % 3 : Math.sin(v / 50) * 10) + (levels ? Math.floor(u() * 2) : u()));
      y[n >> 1] = levels ? 40 : 200;
      for (const biasCorrected of [true, false]) {
        const naive = distanceCorrelationSq(x, y, { biasCorrected, method: 'naive' });
        const fast = distanceCorrelationSq(x, y, { biasCorrected, method: 'fast' });
        const scale = Math.sqrt(naive.dvarXSq * naive.dvarYSq);
        expectClose(fast.dcorSq, naive.dcorSq, { abs: 1e-9 }, 'dcor^2');
        expectClose(fast.dcovSq, naive.dcovSq, { abs: 1e-9 * scale }, 'dcov^2');
        expectClose(fast.dvarXSq, naive.dvarXSq, { rel: 1e-9 }, 'dvar^2(x)');
        expectClose(fast.dvarYSq, naive.dvarYSq, { rel: 1e-9 }, 'dvar^2(y)');
      }
    });
  }

  it('keeps dcor^2 within 1e-9 even with an outlier 3000x the spread (dvar^2 there only to ~1e-8 relative)', () => {
    // The sorted path combines sums of squared distances that cancel to ~1e-7 of their size
    // here, so dvar^2 and dcov^2 lose digits that the entry-wise O(n^2) centring keeps.
    const u = seededUniform(4);
    const x = generate(100, () => Math.floor(u() * 5));
    const y = x.map(v => ((v * v) % 3) + Math.floor(u() * 2));
    y[50] = 1e4;
    const naive = distanceCorrelationSq(x, y, { method: 'naive' });
    const fast = distanceCorrelationSq(x, y, { method: 'fast' });
    expectClose(fast.dcorSq, naive.dcorSq, { abs: 1e-9 }, 'dcor^2');
    expectClose(fast.dvarYSq, naive.dvarYSq, { rel: 1e-7 }, 'dvar^2(y)');
  });

  it(`'auto' switches to the fast path above n = ${FAST_DCOR_THRESHOLD} for univariate input only`, () => {
    const u = seededUniform(8);
    const small = generate(FAST_DCOR_THRESHOLD, u);
    const large = generate(FAST_DCOR_THRESHOLD + 1, u);
    expect(distanceCorrelationSq(small, small).method).toBe('naive');
    expect(distanceCorrelationSq(large, large).method).toBe('fast');
    expect(distanceCorrelationSq(large.map(v => [v, 1]), large).method).toBe('naive');
  });
});

describe('conventions', () => {
  it('keeps a negative bias-corrected dcor^2 (no clamping)', () => {
    const r = distanceCorrelationSq([1, 2, 3, 4, 5, 6], [1, 7, 5, 5, 6, 2]);
    expect(r.dcorSq).toBeLessThan(-0.4);
  });
  it('returns 0 when a distance variance is 0, on both paths', () => {
    for (const method of ['naive', 'fast'] as const) {
      expect(distanceCorrelationSq([3, 3, 3, 3, 3], [1, 5, 2, 8, 1], { method }).dcorSq).toBe(0);
    }
  });
  it('gives NaN U-statistics for n < 4 but V-statistics from n = 2', () => {
    const u = distanceCorrelationSq([1, 2, 4], [2, 1, 7]);
    expect([u.dcorSq, u.dcovSq, u.dvarXSq, u.dvarYSq].every(Number.isNaN)).toBe(true);
    expect(distanceCorrelationSq([1, 2], [5, 3], { biasCorrected: false }).dcorSq).toBeCloseTo(1, 12);
  });
});

describe('input errors', () => {
  it('rejects NaN, ragged rows, length mismatch and n < 2', () => {
    expect(() => distanceCorrelationSq([1, NaN, 3, 4], [1, 2, 3, 4])).toThrow(/x\[1\] is NaN/);
    expect(() => distanceCorrelationSq([[1, 2], [3]], [1, 2])).toThrow(expect.objectContaining({ problem: 'ragged-rows', index: 1 }));
    expect(() => distanceCorrelationSq([[1, NaN]], [1])).toThrow(/x\[0\]\[1\] is NaN/);
    expect(() => distanceCovarianceSq([1, 2, 3, 4], [1, 2, 3])).toThrow(/x has 4 values but y has 3/);
    expect(() => distanceCorrelationSq([1], [1])).toThrow(expect.objectContaining({ problem: 'too-few-points' }));
  });
  it('rejects the fast method for multivariate input and unknown methods', () => {
    expect(() => distanceCorrelationSq([[1, 2], [3, 4], [5, 6], [7, 9]], [1, 2, 3, 4], { method: 'fast' })).toThrow(/needs univariate/);
    expect(() => distanceCorrelationSq([1, 2, 3, 4], [1, 2, 3, 4], { method: 'avl' as 'fast' })).toThrow(/method must be/);
  });
});

describe('distance statistics at the level of rounding error', () => {
  it('gives 0, not noise, when a distance variance is exactly 0 (U-centred matrix all zero)', () => {
    // Checked with exact fractions: the U-centred distance matrix of x is all zeros.
    const x = [1, 2, 1, 1, 0];
    const y = [1, 0, 3, 3, 3];
    for (const method of ['naive', 'fast'] as const) {
      const r = distanceCorrelationSq(x, y, { method });
      expect([r.dvarXSq, r.dcovSq, r.dcorSq]).toEqual([0, 0, 0]);
    }
  });
});

describe('distance statistics options', () => {
  it('refuses a biasCorrected that is not a boolean instead of guessing', () => {
    expect(() => distanceCorrelationSq([1, 2, 3, 4], [1, 3, 2, 4], { biasCorrected: 'no' as unknown as boolean })).toThrow(/biasCorrected must be true or false/);
    expect(() => distanceCorrelationSq([1, 2, 3, 4], [1, 3, 2, 4], { biasCorrected: 0 as unknown as boolean })).toThrow(/biasCorrected/);
  });
});
