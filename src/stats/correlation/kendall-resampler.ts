import { denseRanks } from './ranks.js';

export interface TauBResampler {
  /**
   * tau-b of the pairs (x[ix[k]], y[iy[k]]) for k < ix.length (iy defaults to ix), skipping pairs
   * with a NaN; NaN when fewer than `minPairs` remain or every pair is tied in x or in y.
   */
  tau(ix: ArrayLike<number>, iy?: ArrayLike<number>): number;
  /** Distinct values of x and y (the contingency table's size). */
  readonly levels: [number, number];
}

/**
 * Kendall's tau-b recomputed on many resamples of one paired sample (bootstrap, permutation),
 * in O(n + kx ky) per resample, kx and ky the numbers of distinct x and y values: the values are
 * ranked once, each resample only counts a kx x ky contingency table, and the pair counts come from
 * its suffix sums (P = sum c_ij * #{i' > i, j' > j}, Q = sum c_ij * #{i' > i, j' < j}). Ordinal
 * ratings have a handful of levels, so this is far cheaper than sorting every resample; the result
 * equals {@link kendallTauB} on the same pairs. Use kendallTauB itself when kx ky approaches n^2 for large n.
 */
export function tauBResampler(x: ArrayLike<number>, y: ArrayLike<number>, options: { minPairs?: number } = {}): TauBResampler {
  const minPairs = options.minPairs ?? 2;
  const cx = codes(x);
  const cy = codes(y);
  const kx = cx.levels;
  const ky = cy.levels;
  const table = new Float64Array(kx * ky);
  const suffix = new Float64Array((kx + 1) * (ky + 1));
  const row = new Float64Array(kx);
  const col = new Float64Array(ky);
  return {
    levels: [kx, ky],
    tau(ix, iy = ix) {
      table.fill(0);
      row.fill(0);
      col.fill(0);
      let n = 0;
      for (let k = 0; k < ix.length; k++) {
        const a = cx.code[ix[k]!]!;
        const b = cy.code[iy[k]!]!;
        if (a < 0 || b < 0) continue;
        table[a * ky + b]!++;
        row[a]!++;
        col[b]!++;
        n++;
      }
      if (n < minPairs) return NaN;
      // suffix[i][j] = count of pairs with x code >= i and y code >= j.
      const w = ky + 1;
      for (let i = kx - 1; i >= 0; i--) {
        let acc = 0;
        for (let j = ky - 1; j >= 0; j--) {
          acc += table[i * ky + j]!;
          suffix[i * w + j] = acc + suffix[(i + 1) * w + j]!;
        }
      }
      let concordant = 0;
      let discordant = 0;
      for (let i = 0; i < kx - 1; i++) {
        const below = suffix[(i + 1) * w]!;
        for (let j = 0; j < ky; j++) {
          const c = table[i * ky + j]!;
          if (c === 0) continue;
          const higher = suffix[(i + 1) * w + j + 1]!;
          concordant += c * higher;
          discordant += c * (below - suffix[(i + 1) * w + j]!);
        }
      }
      const total = (n * (n - 1)) / 2;
      let tx = 0;
      let ty = 0;
      for (let i = 0; i < kx; i++) tx += (row[i]! * (row[i]! - 1)) / 2;
      for (let j = 0; j < ky; j++) ty += (col[j]! * (col[j]! - 1)) / 2;
      if (tx === total || ty === total) return NaN;
      const tau = (concordant - discordant) / Math.sqrt(total - tx) / Math.sqrt(total - ty);
      return Math.min(1, Math.max(-1, tau));
    },
  };
}

/** Dense rank codes of the finite values; -1 for NaN (a missing value). */
function codes(values: ArrayLike<number>): { code: Int32Array; levels: number } {
  const present: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    present.push(v + 0);
    at.push(i);
  }
  const code = new Int32Array(values.length).fill(-1);
  if (!present.length) return { code, levels: 0 };
  const r = denseRanks(Float64Array.from(present));
  at.forEach((i, k) => (code[i] = r.rank[k]!));
  return { code, levels: r.counts.length };
}
