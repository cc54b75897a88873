/**
 * Order statistics by in-place selection, so robust slopes need O(N) expected work per median
 * instead of an O(N log N) sort of all N pairwise slopes.
 */

/**
 * Rearranges `a[lo..hi]` so that a[k] holds the value it would have if the range were sorted,
 * with nothing larger before it and nothing smaller after it. Hoare partitioning around a
 * median-of-three pivot taken at pseudo-random positions, so sorted or organ-pipe inputs (common
 * for slopes of ordered data) stay linear on average.
 */
export function selectInPlace(a: Float64Array, k: number, lo = 0, hi = a.length - 1): number {
  let state = (k * 2654435761 + hi) >>> 0;
  while (hi > lo) {
    if (hi - lo < 16) {
      insertionSort(a, lo, hi);
      return a[k]!;
    }
    state = (state * 1664525 + 1013904223) >>> 0;
    const span = hi - lo + 1;
    const p1 = lo + (state % span);
    const p2 = lo + ((state >>> 8) % span);
    const p3 = lo + ((state >>> 16) % span);
    const pivot = median3(a[p1]!, a[p2]!, a[p3]!);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    // Now a[lo..j] <= pivot <= a[i..hi], and any a[j+1..i-1] equal the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/**
 * Values at the sorted positions `ks` (any order, may repeat), reordering `a` in place.
 * Each selection narrows the range for the next, so a handful of order statistics cost about
 * as much as one.
 */
export function selectMany(a: Float64Array, ks: readonly number[]): number[] {
  const uniq = [...new Set(ks)].sort((p, q) => p - q);
  const found = new Map<number, number>();
  const visit = (from: number, to: number, lo: number, hi: number): void => {
    if (from > to) return;
    const mid = (from + to) >> 1;
    const k = uniq[mid]!;
    found.set(k, selectInPlace(a, k, lo, hi));
    visit(from, mid - 1, lo, k - 1);
    visit(mid + 1, to, k + 1, hi);
  };
  visit(0, uniq.length - 1, 0, a.length - 1);
  return ks.map(k => found.get(k)!);
}

/**
 * numpy's median: the mean of the two middle values for an even count, NaN when empty.
 * Reorders `a[0..n-1]` in place.
 */
export function medianInPlace(a: Float64Array, n = a.length): number {
  if (n === 0) return NaN;
  const view = n === a.length ? a : a.subarray(0, n);
  const h = n >> 1;
  if (n % 2 === 1) return selectInPlace(view, h);
  const upper = selectInPlace(view, h);
  // After selecting h, the lower middle is the largest value left of h.
  let lower = view[0]!;
  for (let i = 1; i < h; i++) if (view[i]! > lower) lower = view[i]!;
  return (lower + upper) / 2;
}

/** numpy.median of a copy; the input is left untouched. */
export function median(values: ArrayLike<number>): number {
  return medianInPlace(Float64Array.from(values));
}

function median3(a: number, b: number, c: number): number {
  if (a < b) return b < c ? b : a < c ? c : a;
  return a < c ? a : b < c ? c : b;
}

function insertionSort(a: Float64Array, lo: number, hi: number): void {
  for (let i = lo + 1; i <= hi; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= lo && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
}
