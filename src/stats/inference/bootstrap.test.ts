import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bootstrapCI, pairedBootstrap, quantileSorted, type SampleStatistic } from './bootstrap.js';
import { StatsInputError } from './errors.js';

interface BootCase {
  data: string;
  statistic: 'mean' | 'median';
  seed: number;
  resamples: number;
  level: number;
  method: 'percentile' | 'bca';
  estimate: number;
  low: number | null;
  high: number | null;
  acceleration: number | null;
  standard_error: number;
  first_five: number[];
}
interface PairedCase {
  statistic: 'meanDifference' | 'medianDifference';
  seed: number;
  resamples: number;
  level: number;
  method: 'percentile' | 'bca';
  difference: number;
  low: number;
  high: number;
  acceleration: number | null;
  p_one_sided: number;
  standard_error: number;
}
const ref = JSON.parse(readFileSync(new URL('./__fixtures__/inference.json', import.meta.url), 'utf8')) as {
  datasets: Record<string, number[]>;
  paired: { a: number[]; b: number[] };
  bootstrap: BootCase[];
  paired_bootstrap: PairedCase[];
};

function median(x: Float64Array): number {
  const s = x.slice().sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
const statistics: Record<BootCase['statistic'], SampleStatistic> = { mean: 'mean', median };
const near = (a: number, b: number | null, tol = 1e-9) =>
  b === null ? expect(a).toBeNaN() : expect(Math.abs(a - b)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

describe('bootstrapCI vs scipy on the same resamples', () => {
  for (const c of ref.bootstrap) {
    it(`${c.data} ${c.statistic} ${c.method} B=${c.resamples} level=${c.level}`, () => {
      const r = bootstrapCI(ref.datasets[c.data]!, statistics[c.statistic], {
        seed: c.seed, resamples: c.resamples, level: c.level, method: c.method, keepDistribution: true,
      });
      near(r.estimate, c.estimate);
      Array.from(r.distribution!.subarray(0, 5)).forEach((v, i) => near(v, c.first_five[i]!));
      near(r.low, c.low);
      near(r.high, c.high);
      near(r.standardError, c.standard_error);
      if (c.method === 'bca') near(r.bca!.acceleration, c.acceleration);
      expect(r).toMatchObject({ seed: c.seed, resamples: c.resamples, level: c.level, method: c.method, n: ref.datasets[c.data]!.length });
    });
  }
});

describe('pairedBootstrap vs scipy on the same resamples', () => {
  const medianDiff = (a: Float64Array, b: Float64Array) => median(a) - median(b);
  for (const c of ref.paired_bootstrap) {
    it(`${c.statistic} ${c.method}`, () => {
      const r = pairedBootstrap(ref.paired.a, ref.paired.b, {
        seed: c.seed, resamples: c.resamples, level: c.level, method: c.method,
        statistic: c.statistic === 'meanDifference' ? 'meanDifference' : medianDiff,
      });
      near(r.difference, c.difference);
      near(r.low, c.low);
      near(r.high, c.high);
      near(r.standardError, c.standard_error);
      expect(r.pOneSided).toBe(c.p_one_sided);
      if (c.method === 'bca') near(r.bca!.acceleration, c.acceleration);
    });
  }

  it('default statistic equals bootstrapCI of the differences with the same seed', () => {
    const d = ref.paired.a.map((v, i) => v - ref.paired.b[i]!);
    const p = pairedBootstrap(ref.paired.a, ref.paired.b, { seed: 5, method: 'bca' });
    const s = bootstrapCI(d, 'mean', { seed: 5, method: 'bca' });
    expect([p.low, p.high, p.difference]).toEqual([s.low, s.high, s.estimate]);
  });
});

describe('bootstrap reproducibility and conventions', () => {
  const x = ref.datasets['skewed40']!;
  it('same seed -> identical interval; other seed -> different', () => {
    const a = bootstrapCI(x, 'mean', { seed: 99 });
    const b = bootstrapCI(x, 'mean', { seed: 99 });
    const c = bootstrapCI(x, 'mean', { seed: 100 });
    expect(b).toEqual(a);
    expect(c.low).not.toBe(a.low);
  });

  it('the mean fast path equals the generic path', () => {
    const mean = (s: Float64Array) => s.reduce((p, v) => p + v, 0) / s.length;
    for (const method of ['percentile', 'bca'] as const) {
      const fast = bootstrapCI(x, 'mean', { seed: 3, method });
      const slow = bootstrapCI(x, mean, { seed: 3, method });
      near(fast.low, slow.low, 1e-12);
      near(fast.high, slow.high, 1e-12);
    }
  });

  it('reports a generated seed that reproduces the run', () => {
    const a = bootstrapCI(x, 'mean', { resamples: 200 });
    expect(Number.isSafeInteger(a.seed)).toBe(true);
    expect(bootstrapCI(x, 'mean', { resamples: 200, seed: a.seed })).toEqual(a);
  });

  it('constant data: percentile interval collapses, BCa is NaN as in scipy', () => {
    const p = bootstrapCI([2, 2, 2, 2], 'mean', { seed: 1 });
    expect([p.low, p.high]).toEqual([2, 2]);
    const b = bootstrapCI([2, 2, 2, 2], 'mean', { seed: 1, method: 'bca' });
    expect(b.low).toBeNaN();
  });

  it('quantileSorted interpolates linearly (type 7)', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0)).toBe(1);
    expect(quantileSorted([1, 2, 3, 4], 1)).toBe(4);
    expect(quantileSorted([10, 20], 0.25)).toBe(12.5);
  });

  it('rejects bad input, naming the argument', () => {
    expect(() => bootstrapCI([1], 'mean')).toThrow(/^data: needs at least 2/);
    expect(() => bootstrapCI([1, Number.NaN, 3], 'mean')).toThrow(/^data\[1\]/);
    expect(() => bootstrapCI(x, 'mean', { level: 95 })).toThrow(/^level/);
    expect(() => bootstrapCI(x, 'mean', { resamples: 1 })).toThrow(/^resamples/);
    expect(() => bootstrapCI(x, 'mean', { seed: -3 })).toThrow(/^seed/);
    expect(() => bootstrapCI(x, 'mean', { method: 'basic' as never })).toThrow(/^method/);
    expect(() => bootstrapCI(x, 'median' as never)).toThrow(/^statistic/);
    expect(() => bootstrapCI(x, () => Number.NaN)).toThrow(StatsInputError);
    expect(() => pairedBootstrap([1, 2, 3], [1, 2])).toThrow(/^b: must have the same length/);
  });
});
