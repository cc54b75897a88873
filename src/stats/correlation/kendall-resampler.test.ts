import { describe, expect, it } from 'vitest';
import { createRng } from '../random/index.js';
import { kendallTauB, tauBResampler } from './index.js';

describe('tauBResampler equals kendallTauB on the same pairs', () => {
  const rng = createRng(7);
  const n = 90;
  const x = Float64Array.from({ length: n }, () => rng.nextInt(7) + 1);
  const y = Float64Array.from(x, v => v + rng.nextInt(5) - 2 + (rng.nextFloat() < 0.3 ? 0.5 : 0));
  const r = tauBResampler(x, y);

  it('on the sample itself and on 200 bootstrap resamples (1e-12)', () => {
    const identity = Uint32Array.from({ length: n }, (_, i) => i);
    expect(Math.abs(r.tau(identity) - kendallTauB(x, y).tau)).toBeLessThan(1e-12);
    const idx = new Uint32Array(n);
    for (let b = 0; b < 200; b++) {
      rng.fillInts(idx, n);
      const bx = Array.from(idx, i => x[i]!);
      const by = Array.from(idx, i => y[i]!);
      const expected = kendallTauB(bx, by).tau;
      const got = r.tau(idx);
      if (Number.isNaN(expected)) expect(got).toBeNaN();
      else expect(Math.abs(got - expected)).toBeLessThan(1e-12);
    }
  });

  it('with separate x and y indices (a permutation) and with missing values skipped', () => {
    const perm = rng.shuffle(Array.from({ length: n }, (_, i) => i));
    const identity = Array.from({ length: n }, (_, i) => i);
    expect(Math.abs(r.tau(perm, identity) - kendallTauB(perm.map(i => x[i]!), y).tau)).toBeLessThan(1e-12);
    const xm = x.map((v, i) => (i % 4 === 0 ? NaN : v));
    const keep = identity.filter(i => i % 4 !== 0);
    expect(Math.abs(tauBResampler(xm, y).tau(identity) - kendallTauB(keep.map(i => x[i]!), keep.map(i => y[i]!)).tau)).toBeLessThan(1e-12);
  });

  it('hand case: x = 1,2,3,4 and y = 1,3,2,4 give (5 - 1) / 6; all-tied x gives NaN; minPairs is honoured', () => {
    expect(tauBResampler([1, 2, 3, 4], [1, 3, 2, 4]).tau([0, 1, 2, 3])).toBeCloseTo(4 / 6, 14);
    expect(tauBResampler([2, 2, 2], [1, 2, 3]).tau([0, 1, 2])).toBeNaN();
    expect(tauBResampler([1, 2, 3], [1, 2, 3], { minPairs: 4 }).tau([0, 1, 2])).toBeNaN();
  });
});
