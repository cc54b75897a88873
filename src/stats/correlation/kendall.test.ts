import { describe, expect, it } from 'vitest';
import { expectClose, generate, loadJson, seededUniform } from './__fixtures__/support.js';
import { CorrelationInputError } from './errors.js';
import { countInversions, kendallTauB, kendallTauC } from './kendall.js';
import { kendallExactTwoSidedP } from './kendall-exact.js';

interface ConformanceCase {
  name: string;
  x: number[];
  y: number[];
  scipy_1_17_1: { tau_b: number | null; tau_c: number | null; pvalue_auto: number | null };
  pair_counts: {
    concordant: number;
    discordant: number;
    ties_x_only: number;
    ties_y_only: number;
    ties_both: number;
    n_pairs: number;
  };
}

const conformance = loadJson<{ cases: ConformanceCase[] }>(import.meta.url, '../../../test/conformance/kendall_tau_b.json');
// The vector file states 1e-12 absolute for every value, p-values included.
const ABS = 1e-12;

describe('kendallTauB / kendallTauC conformance (test/conformance/kendall_tau_b.json)', () => {
  it('has the 24 documented cases', () => {
    expect(conformance.cases).toHaveLength(24);
  });
  for (const c of conformance.cases) {
    it(c.name, () => {
      const b = kendallTauB(c.x, c.y);
      const tc = kendallTauC(c.x, c.y);
      const ref = c.scipy_1_17_1;
      expectClose(b.tau, ref.tau_b, { abs: ABS }, 'tau_b');
      expectClose(tc.tau, ref.tau_c, { abs: ABS }, 'tau_c');
      expectClose(b.pValue, ref.pvalue_auto, { abs: ABS }, 'p (tau-b)');
      expectClose(tc.pValue, ref.pvalue_auto, { abs: ABS }, 'p (tau-c)');
      const pc = c.pair_counts;
      expect({ ...b, tau: 0, pValue: 0 }).toEqual({
        tau: 0,
        pValue: 0,
        concordant: pc.concordant,
        discordant: pc.discordant,
        tiesX: pc.ties_x_only,
        tiesY: pc.ties_y_only,
        tiesXY: pc.ties_both,
        n: c.x.length,
      });
      expect(b.concordant + b.discordant + b.tiesX + b.tiesY + b.tiesXY).toBe(pc.n_pairs);
    });
  }
});

interface ExtraCase {
  name: string;
  x: number[];
  y: number[];
  tau_b: number | null;
  tau_c: number | null;
  p: number | null;
}
const extra = loadJson<{ cases: ExtraCase[] }>(import.meta.url, './__fixtures__/kendall_extra.json');

describe('kendall vs scipy on larger inputs (__fixtures__/kendall_extra.json)', () => {
  for (const c of extra.cases) {
    it(c.name, () => {
      const b = kendallTauB(c.x, c.y);
      expectClose(b.tau, c.tau_b, { abs: 1e-12 }, 'tau_b');
      expectClose(kendallTauC(c.x, c.y).tau, c.tau_c, { abs: 1e-12 }, 'tau_c');
      expectClose(b.pValue, c.p, { abs: 1e-12 }, 'p');
    });
  }
});

/** O(n^2) classification of every pair, the definition the fast path must reproduce. */
function naiveCounts(x: number[], y: number[]) {
  const out = { concordant: 0, discordant: 0, tiesX: 0, tiesY: 0, tiesXY: 0 };
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const s = Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
      if (x[i] === x[j] && y[i] === y[j]) out.tiesXY++;
      else if (x[i] === x[j]) out.tiesX++;
      else if (y[i] === y[j]) out.tiesY++;
      else if (s > 0) out.concordant++;
      else out.discordant++;
    }
  }
  return out;
}

describe('O(n log n) counts equal the O(n^2) pair classification', () => {
  for (const [n, levels, seed] of [
    [2, 2, 1],
    [37, 3, 2],
    [200, 5, 3],
    [1000, 7, 4],
    [2500, 40, 5],
    [1500, 1000000, 6],
  ] as const) {
    it(`n = ${n}, about ${Math.min(levels, n)} distinct values`, () => {
      const u = seededUniform(seed);
      const x = generate(n, () => Math.floor(u() * levels));
      const y = generate(n, i => (u() < 0.3 ? x[i]! : Math.floor(u() * levels)) - 0.5 * (u() < 0.1 ? 1 : 0));
      const b = kendallTauB(x, y);
      const naive = naiveCounts(x, y);
      expect({ concordant: b.concordant, discordant: b.discordant, tiesX: b.tiesX, tiesY: b.tiesY, tiesXY: b.tiesXY }).toEqual(naive);
      const { concordant: p, discordant: q, tiesX: tx, tiesY: ty } = naive;
      if (Number.isFinite(b.tau)) expectClose(b.tau, (p - q) / Math.sqrt((p + q + tx) * (p + q + ty)), { abs: 1e-12 }, 'tau_b');
    });
  }

  it('treats -0 and +0 as the same value', () => {
    expect(kendallTauB([-0, 0, 1], [1, 2, 3]).tiesX).toBe(1);
  });

  it('does not depend on input order', () => {
    const u = seededUniform(9);
    const x = generate(300, () => Math.round(u() * 6));
    const y = generate(300, i => x[i]! + Math.round(u() * 4));
    const perm = generate(300, i => i).sort(() => u() - 0.5);
    const a = kendallTauB(x, y);
    const b = kendallTauB(perm.map(i => x[i]!), perm.map(i => y[i]!));
    expect(b).toEqual(a);
  });
});

describe('countInversions', () => {
  it('counts strict inversions (equal codes are not inversions)', () => {
    const u = seededUniform(11);
    for (const [n, m] of [[0, 1], [1, 1], [31, 50], [64, 3], [1000, 50], [1000, 1000]] as const) {
      const a = Uint32Array.from(generate(n, () => Math.floor(u() * m)));
      let expected = 0;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (a[i]! > a[j]!) expected++;
      expect(countInversions(a, m)).toBe(expected);
    }
  });
});

describe('exact null distribution', () => {
  it('sums to 1 over all concordant counts for n = 6 (one-sided masses from two-sided p)', () => {
    // Independent check: enumerate all 720 permutations and count inversions directly.
    const perms: number[][] = [];
    const permute = (prefix: number[], rest: number[]): void => {
      if (rest.length === 0) perms.push(prefix);
      rest.forEach((v, i) => permute([...prefix, v], [...rest.slice(0, i), ...rest.slice(i + 1)]));
    };
    permute([], [0, 1, 2, 3, 4, 5]);
    const concordant = perms.map(p => {
      let c = 0;
      for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) if (p[i]! < p[j]!) c++;
      return c;
    });
    for (let c = 0; c <= 15; c++) {
      const tail = Math.min(c, 15 - c);
      const atMost = concordant.filter(v => Math.min(v, 15 - v) <= tail).length / 720;
      expectClose(kendallExactTwoSidedP(6, c), Math.min(1, atMost), { abs: 1e-15 }, `c = ${c}`);
    }
  });
});

describe('input errors', () => {
  it('rejects NaN, with the index', () => {
    const call = () => kendallTauB([1, 2, NaN], [1, 2, 3]);
    expect(call).toThrow(CorrelationInputError);
    expect(call).toThrow(/x\[2\] is NaN/);
    try {
      call();
    } catch (e) {
      expect(e).toBeInstanceOf(RangeError);
      expect(e).toMatchObject({ name: 'CorrelationInputError', problem: 'not-finite', argument: 'x', index: 2 });
    }
  });
  it('rejects infinities and non-numbers', () => {
    expect(() => kendallTauC([1, 2, 3], [1, Infinity, 3])).toThrow(/y\[1\] is Infinity/);
    expect(() => kendallTauB([1, '2' as unknown as number], [1, 2])).toThrow(/x\[1\] is string/);
  });
  it('rejects length mismatch and fewer than 2 points', () => {
    expect(() => kendallTauB([1, 2, 3], [1, 2])).toThrow(/x has 3 values but y has 2/);
    expect(() => kendallTauB([1], [1])).toThrow(/at least 2 paired observations, got 1/);
    expect(() => kendallTauB([], [])).toThrow(expect.objectContaining({ problem: 'too-few-points' }));
  });
});
