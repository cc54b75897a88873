import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StatsInputError } from '../inference/errors.js';
import { Xoshiro128, createRng, randomSeed } from './index.js';

interface SeedCase {
  seed: number;
  uint32: number[];
  float: number[];
  int: Record<string, number[]>;
  shuffle10: number[];
  sample20_5: number[];
}
const fixture = JSON.parse(
  readFileSync(new URL('./__fixtures__/random_reference.json', import.meta.url), 'utf8'),
) as { seeds: SeedCase[] };

describe('Xoshiro128 matches the independent Python reimplementation', () => {
  for (const c of fixture.seeds) {
    it(`seed ${c.seed}`, () => {
      let r = createRng(c.seed);
      expect(Array.from({ length: c.uint32.length }, () => r.nextUint32())).toEqual(c.uint32);
      r = createRng(c.seed);
      expect(Array.from({ length: c.float.length }, () => r.nextFloat())).toEqual(c.float);
      r = createRng(c.seed);
      for (const [n, values] of Object.entries(c.int)) {
        expect(values.map(() => r.nextInt(Number(n)))).toEqual(values);
      }
      expect(createRng(c.seed).shuffle(Array.from({ length: 10 }, (_, i) => i))).toEqual(c.shuffle10);
      expect(createRng(c.seed).sample(Array.from({ length: 20 }, (_, i) => i), 5)).toEqual(c.sample20_5);
    });
  }
});

describe('Xoshiro128 behaviour', () => {
  it('same seed, same stream; different seed, different stream', () => {
    const a = createRng(7);
    const b = createRng(7);
    const c = createRng(8);
    const xa = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(xa);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(xa);
  });

  it('nextInt is uniform enough (chi-square on 6 bins)', () => {
    const r = createRng(123);
    const counts = new Array<number>(6).fill(0);
    const draws = 60_000;
    for (let i = 0; i < draws; i++) counts[r.nextInt(6)]!++;
    const expected = draws / 6;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(20.5); // 0.999 quantile of chi-square(5)
  });

  it('nextFloat stays in [0, 1)', () => {
    const r = createRng(5);
    for (let i = 0; i < 10_000; i++) {
      const x = r.nextFloat();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });

  it('sample with replacement and shuffle keep the elements', () => {
    const r = createRng(9);
    const xs = ['a', 'b', 'c', 'd'];
    expect(r.shuffle(xs.slice()).sort()).toEqual(xs);
    const s = r.sample(xs, 10, { replace: true });
    expect(s).toHaveLength(10);
    expect(s.every(x => xs.includes(x))).toBe(true);
    expect(xs).toEqual(['a', 'b', 'c', 'd']);
  });

  it('randomSeed gives a safe integer seed', () => {
    const s = randomSeed();
    expect(Number.isSafeInteger(s) && s >= 0).toBe(true);
    expect(new Xoshiro128(s).seed).toBe(s);
  });

  it('rejects bad seeds and bounds, naming the argument', () => {
    expect(() => createRng(-1)).toThrow(StatsInputError);
    expect(() => createRng(1.5)).toThrow(/seed/);
    expect(() => createRng(Number.NaN)).toThrow(/seed/);
    const r = createRng(1);
    expect(() => r.nextInt(0)).toThrow(/^n:/);
    expect(() => r.nextInt(2 ** 32 + 1)).toThrow(/^n:/);
    expect(() => r.sample([1, 2], 3)).toThrow(/^k:/);
    expect(() => r.sample([], 1, { replace: true })).toThrow(/items/);
  });
});

describe('fillInts', () => {
  it('draws the same stream as nextInt', () => {
    for (const n of [1, 3, 10_000, 2 ** 21, 2 ** 21 + 1, 2 ** 32]) {
      const a = createRng(77);
      const b = createRng(77);
      const filled = Array.from(a.fillInts(new Uint32Array(50), n));
      expect(filled).toEqual(Array.from({ length: 50 }, () => b.nextInt(n)));
      expect(a.nextUint32()).toBe(b.nextUint32());
    }
  });
});

describe('sumOfDraws', () => {
  it('adds x at the indices fillInts draws, in draw order, and leaves the generator where fillInts does', () => {
    // 2^21 + 1 takes the exact 64-bit path; the values are not dyadic, so the order of the additions shows.
    for (const n of [1, 2, 7, 20_000, 2 ** 21 + 1]) {
      const x = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 13) / 3 + 0.1);
      const a = createRng(31);
      const b = createRng(31);
      const idx = b.fillInts(new Uint32Array(n), n);
      let sum = 0;
      for (let i = 0; i < n; i++) sum += x[idx[i]!]!;
      expect(a.sumOfDraws(x)).toBe(sum);
      expect(a.nextUint32()).toBe(b.nextUint32());
    }
  });
});
