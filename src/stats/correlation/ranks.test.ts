import { describe, expect, it } from 'vitest';
import { generate, seededUniform } from './__fixtures__/support.js';
import { finiteSample } from './errors.js';
import { denseRanks, radixSort } from './ranks.js';

/** Reference: distinct values by a comparator sort, ranks by lookup. */
function reference(values: number[]) {
  const distinct = [...new Set(values.map(v => v + 0))].sort((a, b) => a - b);
  const code = new Map(distinct.map((d, k) => [d, k]));
  const rank = values.map(v => code.get(v + 0)!);
  const counts = distinct.map(() => 0);
  for (const k of rank) counts[k]!++;
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
  return { rank, counts, order };
}

describe('denseRanks (radix sort on float bits)', () => {
  it('orders negatives, zeros of both signs, subnormals and huge values correctly', () => {
    const values = [3, -0, 0, -1e-310, 5e-324, -5e-324, 1e308, -1e308, -2.5, -2.5, 2 ** 53, 2 ** 53 + 2, 0.1, 0.30000000000000004, 0.3];
    const r = denseRanks(finiteSample(values, 'x', 'test'));
    const ref = reference(values);
    expect(Array.from(r.rank)).toEqual(ref.rank);
    expect(Array.from(r.counts)).toEqual(ref.counts);
    expect(Array.from(r.order)).toEqual(ref.order);
  });
  it('matches a comparator sort on seeded data whose keys differ in every 16-bit digit', () => {
    const u = seededUniform(21);
    for (const n of [0, 1, 2, 1000, 20000]) {
      const values = generate(n, i => (i % 3 === 0 ? Math.floor(u() * 20) - 10 : (u() - 0.5) * 10 ** Math.floor(u() * 12 - 6)));
      const r = denseRanks(Float64Array.from(values));
      const ref = reference(values);
      expect(Array.from(r.rank)).toEqual(ref.rank);
      expect(Array.from(r.counts)).toEqual(ref.counts);
      expect(Array.from(r.order)).toEqual(ref.order);
    }
  });

  it('radixSort is stable with respect to the order elements are fed in', () => {
    const values = Float64Array.from([2, 1, 2, 1, 2]);
    expect(Array.from(radixSort(values).order)).toEqual([1, 3, 0, 2, 4]);
    expect(Array.from(radixSort(values, Uint32Array.from([4, 3, 2, 1, 0])).order)).toEqual([3, 1, 4, 2, 0]);
  });
});
