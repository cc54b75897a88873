import type { AnovaTable } from './anova.js';

/**
 * REML estimates of the variance components of a balanced random-effects design, constrained to be
 * non-negative.
 *
 * For balanced data the covariance matrix V = sum_b sigma^2_b Z_b Z_b' has one eigenspace per ANOVA
 * stratum a, of dimension df_a, with eigenvalue lambda_a = E[MS_a] = sum_b coef[a][b] sigma^2_b; the
 * grand-mean stratum is absorbed by the fixed intercept. The restricted log-likelihood is therefore
 * (Searle, Casella & McCulloch 1992, 6.7)
 *   l(sigma) = -1/2 sum_a [ df_a ln lambda_a + SS_a / lambda_a ] + const.
 * Without constraints its maximum is lambda = MS, i.e. the ANOVA estimates; when some are negative,
 * we maximise l over sigma >= 0 by projected Fisher scoring with an active set and backtracking:
 * the score is 1/2 C' D (MS - lambda) and the information 1/2 C' D C with D = diag(df / lambda^2).
 * This is the model lme4::lmer fits with one random term per effect (residual = top interaction).
 */
export function remlEstimates(table: AnovaTable, start: number[]): { estimates: number[]; iterations: number; logLik: number } {
  const m = table.effects.length;
  const C = table.coef;
  const df = table.df;
  const ss = table.ss;
  const lambdaOf = (s: number[]): number[] =>
    C.map(row => row.reduce((acc, c, b) => acc + c * s[b]!, 0));
  const logLik = (s: number[]): number => {
    const lam = lambdaOf(s);
    let l = 0;
    for (let a = 0; a < m; a++) {
      if (!(lam[a]! > 0)) return Number.NEGATIVE_INFINITY;
      l -= 0.5 * (df[a]! * Math.log(lam[a]!) + ss[a]! / lam[a]!);
    }
    return l;
  };
  let s = start.map(v => Math.max(0, v));
  // The top interaction (residual) must stay positive for V to be invertible.
  if (!(s[m - 1]! > 0)) s[m - 1] = table.ms[m - 1]! > 0 ? table.ms[m - 1]! : 1;
  let l = logLik(s);
  let iterations = 0;
  for (; iterations < 500; iterations++) {
    const lam = lambdaOf(s);
    const w = lam.map((v, a) => df[a]! / (v * v));
    const r = lam.map((v, a) => ss[a]! / df[a]! - v);
    const grad = new Array<number>(m).fill(0);
    for (let b = 0; b < m; b++) for (let a = 0; a < m; a++) grad[b] = grad[b]! + 0.5 * C[a]![b]! * w[a]! * r[a]!;
    const scale = Math.max(...s.map(Math.abs), 1e-300);
    const free = [...Array(m).keys()].filter(b => s[b]! > 1e-14 * scale || grad[b]! > 0);
    const info = free.map(b => free.map(g => {
      let v = 0;
      for (let a = 0; a < m; a++) v += 0.5 * C[a]![b]! * C[a]![g]! * w[a]!;
      return v;
    }));
    const dFree = solve(info, free.map(b => grad[b]!));
    const dir = new Array<number>(m).fill(0);
    free.forEach((b, j) => (dir[b] = dFree[j]!));
    let step = 1;
    let next = s;
    let lNext = l;
    for (let tries = 0; tries < 60; tries++) {
      next = s.map((v, b) => Math.max(0, v + step * dir[b]!));
      lNext = logLik(next);
      if (lNext >= l - 1e-14 * Math.abs(l)) break;
      step /= 2;
    }
    const moved = Math.max(...next.map((v, b) => Math.abs(v - s[b]!)));
    s = next;
    const improved = lNext - l;
    l = lNext;
    if (moved <= 1e-13 * scale || (improved >= 0 && improved <= 1e-15 * Math.abs(l) && moved <= 1e-10 * scale)) break;
  }
  return { estimates: s, iterations: iterations + 1, logLik: l };
}

/** Solves A x = b for a small symmetric positive-definite A (Gaussian elimination, partial pivoting). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(M[r]![col]!) > Math.abs(M[piv]![col]!)) piv = r;
    [M[col], M[piv]] = [M[piv]!, M[col]!];
    const p = M[col]![col]!;
    if (p === 0) continue;
    for (let r = col + 1; r < n; r++) {
      const f = M[r]![col]! / p;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) M[r]![c]! -= f * M[col]![c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let v = M[r]![n]!;
    for (let c = r + 1; c < n; c++) v -= M[r]![c]! * x[c]!;
    x[r] = M[r]![r]! === 0 ? 0 : v / M[r]![r]!;
  }
  return x;
}
