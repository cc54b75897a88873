import { describe, expect, it } from 'vitest';
import { compareModels, type ComparedModel } from './compare-models.js';

const O = { resamples: 500, seed: 3 };
const m = (name: string, values: Record<string, number>, interval?: ComparedModel['interval']): ComparedModel =>
  ({ name, values: new Map(Object.entries(values)), interval });

describe('compareModels', () => {
  it('pairs units by id and uses only those both systems have', () => {
    // Shared u1..u3, each a - b = 0.5 exactly (0.9-0.4, 0.8-0.3, 0.75-0.25), so every resample is 0.5.
    const a = m('a', { u1: 0.9, u2: 0.8, u3: 0.75, only_a: 0 }, { low: 0.7, high: 0.9 });
    const b = m('b', { u3: 0.25, u2: 0.3, u1: 0.4, only_b: 1 }, { low: 0.2, high: 0.4 });
    const [c] = compareModels([[a, b]], O);
    expect(c).toEqual({ a: 'a', b: 'b', n: 3, difference: 0.5, low: 0.5, high: 0.5, pOneSided: 0, bothIntervals: true, intervalsOverlap: false });
  });

  it('gives the one difference of a single shared unit, with no interval', () => {
    // 0.75 - 0.5 = 0.25
    const [c] = compareModels([[m('a', { u: 0.75 }), m('b', { u: 0.5, v: 1 })]], O);
    expect(c).toMatchObject({ n: 1, difference: 0.25, low: null, high: null, pOneSided: null });
  });

  it('gives nothing without a shared unit', () => {
    const [c] = compareModels([[m('a', { u: 1 }), m('b', { v: 1 })]], O);
    expect(c).toMatchObject({ n: 0, difference: null, low: null, high: null, pOneSided: null });
  });

  it('intervals that touch overlap; a system without an interval counts as overlapping', () => {
    const v = { u1: 0.5, u2: 0.6 };
    const [touch] = compareModels([[m('a', v, { low: 0.5, high: 0.9 }), m('b', v, { low: 0.2, high: 0.5 })]], O);
    expect(touch).toMatchObject({ bothIntervals: true, intervalsOverlap: true });
    const [none] = compareModels([[m('a', v, { low: null, high: null }), m('b', v, { low: 0.2, high: 0.5 })]], O);
    expect(none).toMatchObject({ bothIntervals: false, intervalsOverlap: true });
  });

  it('does not depend on the order units were inserted in (sorted ids feed the seeded resamples)', () => {
    const xs = { u1: 0.1, u2: 0.9, u3: 0.4, u4: 0.7, u5: 0.3 };
    const ys = { u1: 0.2, u2: 0.5, u3: 0.6, u4: 0.1, u5: 0.3 };
    const reversed = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).reverse());
    const [c1] = compareModels([[m('a', xs), m('b', ys)]], O);
    const [c2] = compareModels([[m('a', reversed(xs)), m('b', reversed(ys))]], O);
    expect(c2).toEqual(c1);
    // mean of a - b: (-0.1 + 0.4 - 0.2 + 0.6 + 0) / 5 = 0.7 / 5 = 0.14
    expect(c1!.difference).toBeCloseTo(0.14, 12);
    expect(c1!.low!).toBeLessThan(0.14);
    expect(c1!.high!).toBeGreaterThan(0.14);
  });
});
