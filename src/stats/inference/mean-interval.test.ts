import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bootstrapCI } from './bootstrap.js';
import { meanInterval } from './mean-interval.js';

interface BootCase { data: string; statistic: string; method: string; seed: number; resamples: number; level: number; estimate: number; low: number; high: number }
const ref = JSON.parse(readFileSync(new URL('./__fixtures__/inference.json', import.meta.url), 'utf8')) as {
  datasets: Record<string, number[]>;
  bootstrap: BootCase[];
};

describe('meanInterval', () => {
  // scipy's percentile intervals of the mean on the same resamples (see __fixtures__/inference.json).
  const cases = ref.bootstrap.filter(c => c.statistic === 'mean' && c.method === 'percentile');

  it('has the scipy percentile cases to check against', () => expect(cases.length).toBe(3));

  for (const c of cases) {
    it(`${c.data}: scipy percentile bootstrap of the mean, B=${c.resamples}, level ${c.level}`, () => {
      const values = ref.datasets[c.data]!;
      const r = meanInterval(values, { resamples: c.resamples, seed: c.seed, level: c.level });
      expect(r.n).toBe(values.length);
      expect(Math.abs(r.mean! - c.estimate)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(r.low! - c.low)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(r.high! - c.high)).toBeLessThanOrEqual(1e-12);
    });
  }

  it('a constant sample: the interval its resamples give, bit for bit, and the same checks of the options', () => {
    for (const [value, n] of [[0.3, 7], [1, 20_000], [0, 2], [-0.1, 1001], [2 / 3, 333]] as const) {
      const values = Array.from({ length: n }, () => value);
      const drawn = bootstrapCI(values, 'mean', { resamples: 500, seed: 11, level: 0.9, method: 'percentile' });
      expect(meanInterval(values, { resamples: 500, seed: 11, level: 0.9 })).toEqual({ mean: drawn.estimate, n, low: drawn.low, high: drawn.high });
    }
    expect(() => meanInterval([1, 1, 1], { resamples: 1, seed: 1 })).toThrow(/resamples/);
    expect(() => meanInterval([1, 1, 1], { resamples: 100, seed: 1, level: 1.5 })).toThrow(/level/);
    expect(() => meanInterval([Infinity, Infinity], { resamples: 100, seed: 1 })).toThrow();
  });

  it('no values: no mean and no interval', () => {
    expect(meanInterval([], { resamples: 100, seed: 1 })).toEqual({ mean: null, n: 0, low: null, high: null });
  });

  it('one value: its mean, and no made-up interval', () => {
    expect(meanInterval([0.25], { resamples: 100, seed: 1 })).toEqual({ mean: 0.25, n: 1, low: null, high: null });
  });

  it('the same seed gives the same interval; another seed moves it', () => {
    const x = ref.datasets['skewed40']!;
    const a = meanInterval(x, { resamples: 500, seed: 7 });
    expect(meanInterval(x, { resamples: 500, seed: 7 })).toEqual(a);
    expect(meanInterval(x, { resamples: 500, seed: 8 }).low).not.toBe(a.low);
  });

  it('the mean is the plain mean of the values', () => {
    // (0 + 1 + 1 + 0 + 1 + 0.5 + 0.25 + 1) / 8 = 4.75 / 8 = 0.59375
    expect(meanInterval([0, 1, 1, 0, 1, 0.5, 0.25, 1], { resamples: 50, seed: 1 }).mean).toBe(0.59375);
  });
});
