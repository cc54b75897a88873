import { StatsInputError } from '../inference/errors.js';
import { checkLabel, sortedLabels, type Label } from './labels.js';

export type KappaWeights = 'none' | 'linear' | 'quadratic';

export interface CohenKappaResult {
  kappa: number;
  /** Weighted observed disagreement sum w O / n (1 - observed agreement when unweighted). */
  observedDisagreement: number;
  /** Weighted chance disagreement sum w E / n from the two raters' marginals. */
  expectedDisagreement: number;
  /** Pairs counted (pairs with a label outside `labels` are left out, as sklearn does). */
  n: number;
  labels: Label[];
  weights: KappaWeights;
  /** Confusion matrix: rows rater a, columns rater b, in `labels` order. */
  confusion: number[][];
}

/**
 * Cohen's kappa between two raters, optionally weighted (as sklearn.metrics.cohen_kappa_score):
 * kappa = 1 - sum(w * O) / sum(w * E), E the outer product of the marginals / n, w_ij = [i != j],
 * |i - j| or (i - j)^2 where i, j are POSITIONS in `labels` (not the label values).
 * `labels` defaults to the sorted distinct labels of both raters; when given, pairs using other
 * labels are ignored. Kappa is NaN when chance disagreement is 0 (e.g. both raters always give the
 * same single label), as in sklearn.
 */
export function cohenKappa(
  a: ArrayLike<Label>,
  b: ArrayLike<Label>,
  options: { weights?: KappaWeights; labels?: Label[] } = {},
): CohenKappaResult {
  if (!a || typeof a.length !== 'number') throw new StatsInputError('a', 'expected an array of labels');
  if (!b || typeof b.length !== 'number') throw new StatsInputError('b', 'expected an array of labels');
  if (a.length !== b.length) throw new StatsInputError('b', `must have the same length as a (${a.length}), got ${b.length}`);
  if (a.length === 0) throw new StatsInputError('a', 'needs at least 1 pair of ratings');
  const weights = checkWeights(options.weights ?? 'none');
  const xa = Array.from(a, (v, i) => checkLabel(`a[${i}]`, v));
  const xb = Array.from(b, (v, i) => checkLabel(`b[${i}]`, v));
  let labels: Label[];
  if (options.labels !== undefined) {
    if (!Array.isArray(options.labels) || options.labels.length === 0) throw new StatsInputError('labels', 'expected a non-empty array');
    labels = options.labels.map((v, i) => checkLabel(`labels[${i}]`, v));
    if (new Set(labels).size !== labels.length) throw new StatsInputError('labels', 'has duplicates');
  } else {
    labels = sortedLabels('a, b', [...xa, ...xb]);
  }
  const index = new Map(labels.map((l, i) => [l, i]));
  const L = labels.length;
  const confusion = Array.from({ length: L }, () => new Array<number>(L).fill(0));
  let n = 0;
  for (let i = 0; i < xa.length; i++) {
    const r = index.get(xa[i]!);
    const c = index.get(xb[i]!);
    if (r === undefined || c === undefined) continue;
    confusion[r]![c]!++;
    n++;
  }
  if (n === 0) throw new StatsInputError('labels', 'no pair of ratings uses only these labels');
  return kappaOfConfusion(confusion, labels, weights, n);
}

/**
 * Cohen's kappa from a confusion matrix already counted (rows rater a, columns rater b, in
 * `labels` order): the same figure `cohenKappa` gives for the pairs the matrix counts, for callers
 * that tally verdicts as they read them instead of keeping every pair.
 */
export function cohenKappaOfTable(confusion: ArrayLike<ArrayLike<number>>, options: { weights?: KappaWeights; labels: Label[] }): CohenKappaResult {
  const weights = checkWeights(options.weights ?? 'none');
  if (!Array.isArray(options.labels) || options.labels.length === 0) throw new StatsInputError('labels', 'expected a non-empty array');
  const labels = options.labels.map((v, i) => checkLabel(`labels[${i}]`, v));
  const L = labels.length;
  if (new Set(labels).size !== L) throw new StatsInputError('labels', 'has duplicates');
  if (confusion.length !== L) throw new StatsInputError('confusion', `must have ${L} rows (one per label), got ${confusion.length}`);
  let n = 0;
  const table = Array.from(confusion, (row, i) => {
    if (row.length !== L) throw new StatsInputError(`confusion[${i}]`, `must have ${L} columns, got ${row.length}`);
    return Array.from(row, (v, j) => {
      if (!Number.isInteger(v) || v < 0) throw new StatsInputError(`confusion[${i}][${j}]`, `must be a count (a whole number >= 0), got ${v}`);
      n += v;
      return v;
    });
  });
  if (n === 0) throw new StatsInputError('confusion', 'counts no pair of ratings');
  return kappaOfConfusion(table, labels, weights, n);
}

function checkWeights(weights: KappaWeights): KappaWeights {
  if (weights !== 'none' && weights !== 'linear' && weights !== 'quadratic') {
    throw new StatsInputError('weights', `must be 'none', 'linear' or 'quadratic', got ${String(weights)}`);
  }
  return weights;
}

function kappaOfConfusion(confusion: number[][], labels: Label[], weights: KappaWeights, n: number): CohenKappaResult {
  const L = labels.length;
  const rows = confusion.map(row => row.reduce((s, v) => s + v, 0));
  const cols = labels.map((_, j) => confusion.reduce((s, row) => s + row[j]!, 0));
  let wo = 0;
  let we = 0;
  for (let i = 0; i < L; i++) {
    for (let j = 0; j < L; j++) {
      const w = weights === 'none' ? (i === j ? 0 : 1) : weights === 'linear' ? Math.abs(i - j) : (i - j) ** 2;
      wo += w * confusion[i]![j]!;
      we += (w * rows[i]! * cols[j]!) / n;
    }
  }
  return {
    kappa: 1 - wo / we,
    observedDisagreement: wo / n,
    expectedDisagreement: we / n,
    n,
    labels,
    weights,
    confusion,
  };
}

export interface FleissKappaResult {
  kappa: number;
  /** Mean observed agreement P-bar over subjects. */
  observedAgreement: number;
  /** Chance agreement P-bar_e (sum of squared category shares; 1/categories for Randolph). */
  expectedAgreement: number;
  subjects: number;
  raters: number;
  categories: number;
  method: 'fleiss' | 'randolph';
}

/**
 * Fleiss' kappa for a fixed number of raters per subject (Fleiss 1971; as statsmodels
 * stats.inter_rater.fleiss_kappa). `table[i][j]` = number of raters who put subject i in category j;
 * every row must sum to the same number of raters (>= 2). P_i = (sum_j n_ij^2 - m) / (m (m - 1)),
 * kappa = (mean P_i - P_e) / (1 - P_e) with P_e = sum_j p_j^2 ('fleiss') or 1 / categories
 * ('randolph', Randolph 2005 free-marginal). Use {@link ratingsToTable} to build the table from
 * raw labels.
 */
export function fleissKappa(table: ArrayLike<ArrayLike<number>>, options: { method?: 'fleiss' | 'randolph' } = {}): FleissKappaResult {
  const method = options.method ?? 'fleiss';
  if (method !== 'fleiss' && method !== 'randolph') throw new StatsInputError('method', `must be 'fleiss' or 'randolph', got ${String(method)}`);
  if (!table || typeof table.length !== 'number' || table.length === 0) throw new StatsInputError('table', 'expected a non-empty subjects x categories array of counts');
  const N = table.length;
  const K = table[0]!.length;
  if (!(K >= 1)) throw new StatsInputError('table[0]', 'needs at least one category');
  let m = -1;
  const colSums = new Array<number>(K).fill(0);
  let pSum = 0;
  for (let i = 0; i < N; i++) {
    const row = table[i]!;
    if (!row || row.length !== K) throw new StatsInputError(`table[${i}]`, `expected ${K} category counts, got ${row?.length}`);
    let s = 0;
    let s2 = 0;
    for (let j = 0; j < K; j++) {
      const v = row[j]!;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new StatsInputError(`table[${i}][${j}]`, `expected a count >= 0, got ${String(v)}`);
      s += v;
      s2 += v * v;
      colSums[j] = colSums[j]! + v;
    }
    if (m < 0) m = s;
    else if (s !== m) throw new StatsInputError(`table[${i}]`, `sums to ${s} raters but row 0 sums to ${m}; every subject needs the same number of ratings`);
    pSum += (s2 - s) / (s * (s - 1));
  }
  if (m < 2) throw new StatsInputError('table', `needs at least 2 ratings per subject, got ${m}`);
  const total = N * m;
  const observed = pSum / N;
  const expected = method === 'fleiss' ? colSums.reduce((s, c) => s + (c / total) ** 2, 0) : 1 / K;
  return {
    kappa: (observed - expected) / (1 - expected),
    observedAgreement: observed,
    expectedAgreement: expected,
    subjects: N,
    raters: m,
    categories: K,
    method,
  };
}

/**
 * Subjects x categories count table from raw ratings (subjects x raters labels), as statsmodels
 * aggregate_raters. Categories default to the sorted distinct labels.
 */
export function ratingsToTable(ratings: ArrayLike<ArrayLike<Label>>, categories?: Label[]): { table: number[][]; categories: Label[] } {
  if (!ratings || typeof ratings.length !== 'number' || ratings.length === 0) throw new StatsInputError('ratings', 'expected a non-empty subjects x raters array');
  const rows = Array.from(ratings, (row, i) => Array.from(row, (v, j) => checkLabel(`ratings[${i}][${j}]`, v)));
  const cats = categories ?? sortedLabels('ratings', rows.flat());
  const index = new Map(cats.map((c, j) => [c, j]));
  const table = rows.map((row, i) => {
    const counts = new Array<number>(cats.length).fill(0);
    row.forEach((v, j) => {
      const c = index.get(v);
      if (c === undefined) throw new StatsInputError(`ratings[${i}][${j}]`, `label ${String(v)} is not among the categories`);
      counts[c]!++;
    });
    return counts;
  });
  return { table, categories: cats };
}
