import { selectMany } from './select.js';

/**
 * Order statistics of a large population that is cheap to regenerate but costly to store or to
 * select from: a random sample brackets each wanted rank between two values, one pass over the
 * population counts what falls below each bracket and keeps only what falls inside, and a
 * selection inside the bracket finishes the job. This is the sampling step of Floyd & Rivest's
 * SELECT (1975), applied to the stream of pairwise slopes. The answer is exact; the randomness
 * only affects speed, and a bracket that misses its rank reports failure so the caller can fall
 * back to full selection.
 */
export interface Bracket {
  /** Sorted ranks (0-based in the population) this bracket must contain. */
  ranks: number[];
  low: number;
  high: number;
  /** Population values < low. */
  below: number;
  /** Population values in [low, high]. */
  inside: number[];
}

/**
 * Brackets covering the wanted ranks; ranks whose brackets would overlap share one, so a pass
 * makes as few comparisons per value as possible. The sample's rank of a population quantile
 * has standard deviation at most sqrt(s)/2, so a margin of 5 of those misses with
 * probability ~1e-6.
 */
export function bracketsFor(sample: Float64Array, population: number, wanted: readonly number[]): Bracket[] {
  const s = sample.length;
  const margin = Math.ceil(2.5 * Math.sqrt(s)) + 2;
  const plans = [...new Set(wanted)]
    .sort((a, b) => a - b)
    .map(r => ({ ranks: [r], lo: Math.floor((r / population) * s) - margin, hi: Math.ceil(((r + 1) / population) * s) + margin }));
  const merged: typeof plans = [];
  for (const p of plans) {
    const last = merged[merged.length - 1];
    if (last && p.lo <= last.hi) {
      last.ranks.push(...p.ranks);
      last.hi = Math.max(last.hi, p.hi);
    } else merged.push({ ...p, ranks: [...p.ranks] });
  }
  const inRange = merged.flatMap(p => [p.lo, p.hi]).filter(r => r >= 0 && r < s);
  const picked = new Map<number, number>();
  selectMany(sample, inRange).forEach((v, i) => picked.set(inRange[i]!, v));
  return merged.map(({ ranks, lo, hi }) => ({
    ranks,
    low: lo < 0 ? -Infinity : picked.get(lo)!,
    high: hi >= s ? Infinity : picked.get(hi)!,
    below: 0,
    inside: [],
  }));
}

/** Values at every wanted rank, or undefined when the sample misjudged some bracket. */
export function resolveBrackets(brackets: readonly Bracket[]): Map<number, number> | undefined {
  const out = new Map<number, number>();
  for (const b of brackets) {
    const values = resolveBracket(b);
    if (!values) return undefined;
    b.ranks.forEach((r, i) => out.set(r, values[i]!));
  }
  return out;
}

/** The values at the bracket's ranks, or undefined when the sample misjudged it. */
export function resolveBracket(b: Bracket): number[] | undefined {
  const first = b.ranks[0]! - b.below;
  const last = b.ranks[b.ranks.length - 1]! - b.below;
  if (first < 0 || last >= b.inside.length) return undefined;
  return selectMany(Float64Array.from(b.inside), b.ranks.map(r => r - b.below));
}

/** Deterministic generator for sampling positions (speed only depends on it, never the result). */
export function samplingRng(seed: number): () => number {
  let state = (seed ^ 0x2545f491) >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    let z = state ^ (state >>> 15);
    z = Math.imul(z, 0x2c1b3c6d);
    return ((z ^ (z >>> 12)) >>> 0) / 4294967296;
  };
}
