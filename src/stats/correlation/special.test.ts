import { describe, expect, it } from 'vitest';
import { expectClose, loadJson } from './__fixtures__/support.js';
import { incompleteBeta, logBeta, logGamma, normalCdf, normalPpf, normalSf, studentTSf, studentTTwoSidedP } from './special.js';

interface SpecialFixture {
  betainc: { a: number; b: number; x: number; value: number }[];
  t_two_sided: { t: number; df: number; p: number }[];
  normal_cdf: { z: number; cdf: number }[];
  normal_ppf: { p: number; z: number }[];
}
const fx = loadJson<SpecialFixture>(import.meta.url, './__fixtures__/special.json');

describe('regularized incomplete beta vs scipy.special.betainc', () => {
  it(`matches ${fx.betainc.length} grid points to 1e-12 relative (values below 1e-290 to 1e-300 absolute)`, () => {
    for (const { a, b, x, value } of fx.betainc) {
      expectClose(incompleteBeta(a, b, x), value, { rel: 1e-12, abs: 1e-300 }, `I_${x}(${a}, ${b})`);
    }
  });
  it('is 0 and 1 at the ends and NaN outside the domain', () => {
    expect(incompleteBeta(2, 3, 0)).toBe(0);
    expect(incompleteBeta(2, 3, 1)).toBe(1);
    expect(incompleteBeta(2, 3, 1.5)).toBeNaN();
    expect(incompleteBeta(-1, 3, 0.5)).toBeNaN();
  });
});

describe('log gamma and log beta', () => {
  it('agree with factorials and Gamma(1/2) = sqrt(pi)', () => {
    let f = 1;
    for (let n = 1; n <= 30; n++) {
      expectClose(logGamma(n + 1), Math.log((f *= n)), { abs: 1e-13, rel: 1e-15 }, `lgamma(${n + 1})`);
    }
    expectClose(logGamma(0.5), 0.5 * Math.log(Math.PI), { abs: 4e-15 }, 'lgamma(1/2)');
    // B(a, 1) = 1/a exactly, in every branch of logBeta.
    for (const a of [0.3, 4, 12, 1e4, 1e8]) expectClose(logBeta(a, 1), -Math.log(a), { abs: 1e-13, rel: 1e-14 }, `B(${a}, 1)`);
    for (const [a, b] of [[30, 40], [2.5, 7], [12, 0.5]] as const) {
      expectClose(logBeta(a, b), logBeta(b, a), { abs: 1e-14 }, 'symmetry');
    }
  });
});

describe('Student t vs scipy.special.stdtr', () => {
  it(`two-sided p for ${fx.t_two_sided.length} (t, df) pairs: 1e-12 relative up to df = 1e4, 1e-10 beyond`, () => {
    // With df ~ 1e6 the continued fraction runs at x = df/(df + t^2) within ~1e-6 of 1, where
    // the rounding of x alone moves I_x by ~3e-11 relative (measured worst case in this grid).
    for (const { t, df, p } of fx.t_two_sided) {
      const rel = df <= 1e4 ? 1e-12 : 1e-10;
      expectClose(studentTTwoSidedP(t, df), p, { rel, abs: 1e-300 }, `t=${t} df=${df}`);
      expectClose(studentTTwoSidedP(-t, df), p, { rel, abs: 1e-300 }, `t=${-t} df=${df}`);
    }
  });
  it('one-sided survival is half the two-sided p on each side', () => {
    expectClose(studentTSf(2, 7) + studentTSf(-2, 7), 1, { abs: 1e-15 }, 'sf(t) + sf(-t)');
    expect(studentTTwoSidedP(Infinity, 3)).toBe(0);
    expect(studentTTwoSidedP(1, 0)).toBeNaN();
  });
});

describe('normal distribution vs scipy.special.ndtr / ndtri', () => {
  it('cdf, including both tails, to 1e-13 relative (scipy itself is ~6e-14 off at z = -30; it underflows to 0 at z = -38)', () => {
    for (const { z, cdf } of fx.normal_cdf) {
      expectClose(normalCdf(z), cdf, { rel: 1e-13, abs: 1e-300 }, `ndtr(${z})`);
      expectClose(normalSf(-z), cdf, { rel: 1e-13, abs: 1e-300 }, `sf(${-z})`);
    }
  });
  it('ppf to 1e-12 relative', () => {
    for (const { p, z } of fx.normal_ppf) expectClose(normalPpf(p), z, { rel: 1e-12, abs: 1e-14 }, `ndtri(${p})`);
    expect(normalPpf(0)).toBe(-Infinity);
    expect(normalPpf(1)).toBe(Infinity);
    expect(normalPpf(1.2)).toBeNaN();
  });
});
