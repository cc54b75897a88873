import { describe, expect, it } from 'vitest';
import { allocateEvenly, seededOrder } from './seeded.js';

describe('seededOrder', () => {
  const ids = Array.from({ length: 50 }, (_, i) => String(i));

  it('is a permutation fixed by the seed and changed by another seed', () => {
    const a = seededOrder(ids, 1, 'pairs', x => x);
    expect([...a].sort()).toEqual([...ids].sort());
    expect(seededOrder(ids, 1, 'pairs', x => x)).toEqual(a);
    expect(seededOrder(ids, 2, 'pairs', x => x)).not.toEqual(a);
    expect(seededOrder(ids, 1, 'other-label', x => x)).not.toEqual(a);
  });

  it('keeps the relative order of the others when an element is removed', () => {
    const full = seededOrder(ids, 7, 'pairs', x => x);
    const without = seededOrder(ids.filter(x => x !== '13'), 7, 'pairs', x => x);
    expect(without).toEqual(full.filter(x => x !== '13'));
  });
});

describe('allocateEvenly', () => {
  it('splits evenly and gives the remainder in priority order', () => {
    expect(allocateEvenly(10, [100, 100, 100], [2, 0, 1])).toEqual([3, 3, 4]);
  });

  it('moves what a small slot cannot take to the others', () => {
    expect(allocateEvenly(12, [1, 100, 100], [0, 1, 2])).toEqual([1, 6, 5]);
    expect(allocateEvenly(9, [2, 2, 100], [0, 1, 2])).toEqual([2, 2, 5]);
  });

  it('stops at the total capacity', () => {
    expect(allocateEvenly(50, [3, 4, 0], [0, 1, 2])).toEqual([3, 4, 0]);
    expect(allocateEvenly(5, [], [])).toEqual([]);
  });

  it('gives the unbounded even share when capacities are infinite', () => {
    expect(allocateEvenly(7, [Infinity, Infinity], [1, 0])).toEqual([3, 4]);
  });
});
