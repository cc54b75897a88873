/**
 * Exact two-sided p-value of Kendall's tau under independence, without ties, as scipy's
 * `_kendall_p_exact` computes it: the number of permutations of n with c inversions comes from
 * the recurrence N(j, k) = sum_{i=0}^{min(k, j-1)} N(j-1, k-i) (Kendall 1970, ch. 5), kept as
 * running sums. `c` is the concordant count; the distribution is symmetric, so the lower tail
 * is doubled.
 */
export function kendallExactTwoSidedP(n: number, concordant: number): number {
  const total = (n * (n - 1)) / 2;
  const c = Math.min(concordant, total - concordant);
  if (n <= 2) return 1;
  if (c === 0) return n < 171 ? 2 / factorial(n) : 0;
  if (c === 1) return n < 172 ? 2 / factorial(n - 1) : 0;
  if (4 * c === n * (n - 1)) return 1;
  // counts[k] = permutations of j elements with exactly k inversions, for k <= c.
  let counts = new Float64Array(c + 1);
  counts[0] = 1;
  counts[1] = 1;
  for (let j = 3; j <= n; j++) {
    const next = new Float64Array(c + 1);
    let run = 0;
    for (let k = 0; k <= c; k++) {
      run += counts[k]!;
      next[k] = run;
    }
    // Subtract the part of the running sum that reaches back more than j-1 inversions.
    for (let k = c; k >= j; k--) next[k]! -= next[k - j]!;
    counts = next;
  }
  let sum = 0;
  for (let k = 0; k <= c; k++) sum += counts[k]!;
  return Math.min(1, Math.max(0, (2 * sum) / factorial(n)));
}

function factorial(n: number): number {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
}
