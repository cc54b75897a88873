import { describe, expect, it } from 'vitest';
import { generate, seededUniform } from './__fixtures__/support.js';
import { bracketsFor, resolveBrackets } from './bracket.js';
import { repeatedMedian } from './siegel.js';

function stream(values: number[], brackets: ReturnType<typeof bracketsFor>): void {
  for (const v of values) {
    for (const b of brackets) {
      if (v < b.low) b.below++;
      else if (v <= b.high) b.inside.push(v);
    }
  }
}

describe('sampled brackets', () => {
  const u = seededUniform(31);
  const population = generate(50_000, () => Math.floor(u() * 2000) / 7);
  const sorted = [...population].sort((a, b) => a - b);
  const wanted = [0, 24_999, 25_000, 26_100, 49_999];

  it('give the exact order statistics from a representative sample, merging nearby ranks', () => {
    const sample = Float64Array.from(generate(4000, () => population[Math.floor(u() * population.length)]!));
    const brackets = bracketsFor(sample, population.length, wanted);
    expect(brackets.length).toBeLessThan(wanted.length);
    stream(population, brackets);
    const values = resolveBrackets(brackets);
    expect(wanted.map(r => values?.get(r))).toEqual(wanted.map(r => sorted[r]));
  });

  it('report failure instead of a wrong value when the sample misleads', () => {
    // A sample drawn only from the lowest tenth puts the median bracket far too low.
    const sample = Float64Array.from(generate(4000, () => sorted[Math.floor(u() * 5000)]!));
    const brackets = bracketsFor(sample, population.length, [25_000]);
    stream(population, brackets);
    expect(resolveBrackets(brackets)).toBeUndefined();
  });
});

describe('repeatedMedian', () => {
  /** Brute force: every row median, then their median (numpy conventions). */
  function bruteForce(rows: number[][]): number {
    const med = (v: number[]) => {
      const s = [...v].sort((a, b) => a - b);
      const h = s.length >> 1;
      return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
    };
    return med(rows.map(med));
  }
  for (const [n, levels] of [
    [63, 0],
    [64, 5],
    [400, 0],
    [901, 3],
    [1200, 40],
  ] as const) {
    it(`equals the brute force for ${n} rows${levels ? ` with ${levels}-level ties` : ''}`, () => {
      const r = seededUniform(n);
      const rows = generate(n, j => generate(n - 1 - (j % 3), () => (levels ? Math.floor(r() * levels) : r() + (j % 7) / 10)));
      const fill = (j: number, out: Float64Array): number => {
        out.set(rows[j]!);
        return rows[j]!.length;
      };
      expect(repeatedMedian(n, fill)).toBe(bruteForce(rows));
    });
  }

  it('classifies rows whose middle values straddle the bracket edge exactly', () => {
    // 0/1 rows of even length: a row with exactly half zeros has median 0.5, which is both the
    // typical row median and the bracket edge, so "how many below the edge" must be compared
    // against the upper middle position, not the lower.
    const r = seededUniform(5);
    const n = 400;
    const zeros = generate(n, () => 200 + (r() < 0.8 ? 0 : r() < 0.5 ? -1 : 1));
    const rows = zeros.map(z => [...Array<number>(z).fill(0), ...Array<number>(400 - z).fill(1)]);
    let calls = 0;
    const fill = (j: number, out: Float64Array): number => {
      calls++;
      out.set(rows[j]!);
      return rows[j]!.length;
    };
    expect(repeatedMedian(n, fill)).toBe(bruteForce(rows));
    // Each row is filled once (sampled rows keep their exact median); a misclassification
    // would trip the exactness check and refill rows in the fallback.
    expect(calls).toBe(n);
  });
});
