import { describe, expect, it } from 'vitest';
import { generate, seededUniform } from './__fixtures__/support.js';
import { median, medianInPlace, selectInPlace, selectMany } from './select.js';

const shapes: Record<string, (n: number, u: () => number) => number[]> = {
  random: (n, u) => generate(n, () => u()),
  'few distinct': (n, u) => generate(n, () => Math.floor(u() * 3)),
  ascending: n => generate(n, i => i),
  descending: n => generate(n, i => n - i),
  'organ pipe': n => generate(n, i => Math.min(i, n - i)),
  constant: n => generate(n, () => 7),
};

describe('selection', () => {
  for (const [shape, make] of Object.entries(shapes)) {
    it(`matches a full sort on ${shape} data`, () => {
      const u = seededUniform(shape.length);
      for (const n of [1, 2, 15, 16, 17, 100, 1001]) {
        const values = make(n, u);
        const sorted = [...values].sort((a, b) => a - b);
        for (const k of [0, n >> 1, n - 1, Math.floor(u() * n)]) {
          const a = Float64Array.from(values);
          expect(selectInPlace(a, k)).toBe(sorted[k]);
          for (let i = 0; i < k; i++) expect(a[i]).toBeLessThanOrEqual(a[k]!);
          for (let i = k + 1; i < n; i++) expect(a[i]).toBeGreaterThanOrEqual(a[k]!);
        }
        const ks = [n - 1, 0, n >> 1, n >> 1, Math.floor(u() * n)];
        expect(selectMany(Float64Array.from(values), ks)).toEqual(ks.map(k => sorted[k]));
        const mid = n % 2 ? sorted[n >> 1]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
        expect(median(values)).toBe(mid);
      }
    });
  }
  it('median of nothing is NaN and medianInPlace honours the count', () => {
    expect(median([])).toBeNaN();
    expect(medianInPlace(Float64Array.from([5, 1, 3, 100, 100]), 3)).toBe(3);
  });
});
