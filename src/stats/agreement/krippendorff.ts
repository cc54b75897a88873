import { StatsInputError } from '../inference/errors.js';
import { checkLabel, sortedLabels, type Label } from './labels.js';

export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';

export interface KrippendorffResult {
  alpha: number;
  level: MeasurementLevel;
  /** Observed disagreement D_o = sum_ck o_ck delta^2_ck / n. */
  observedDisagreement: number;
  /** Expected disagreement D_e = sum_ck n_c n_k delta^2_ck / (n (n - 1)). */
  expectedDisagreement: number;
  /** Pairable values n (values in units coded by at least two raters). */
  n: number;
  /** Units with at least two values. */
  units: number;
  /** The value domain, in order. */
  values: Label[];
}

/**
 * Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"; as the
 * `krippendorff` Python package). `data` is raters x units with `null` (or undefined / NaN) for
 * missing. Builds the coincidence matrix o_ck = sum_u n_uc (n_uk - [c = k]) / (m_u - 1) over units
 * with m_u >= 2 values, then alpha = 1 - D_o / D_e with the level's squared difference:
 * nominal [c != k]; ordinal (sum_{g from c to k} n_g - (n_c + n_k)/2)^2 over the ordered domain;
 * interval (c - k)^2; ratio ((c - k)/(c + k))^2.
 * Ordinal with string labels needs `valueDomain` (the order); numbers are ordered numerically.
 * Needs at least one unit with two values and two distinct values in the domain; alpha is NaN when
 * the pairable values show no variation (D_e = 0).
 */
export function krippendorffAlpha(
  data: ArrayLike<ArrayLike<Label | null | undefined>>,
  options: { level?: MeasurementLevel; valueDomain?: Label[] } = {},
): KrippendorffResult {
  const level = options.level ?? 'nominal';
  if (!['nominal', 'ordinal', 'interval', 'ratio'].includes(level)) {
    throw new StatsInputError('level', `must be 'nominal', 'ordinal', 'interval' or 'ratio', got ${String(level)}`);
  }
  if (!data || typeof data.length !== 'number' || data.length === 0) throw new StatsInputError('data', 'expected a non-empty raters x units array');
  const raters = data.length;
  const unitsCount = data[0]!.length;
  const cells: (Label | null)[][] = [];
  for (let r = 0; r < raters; r++) {
    const row = data[r]!;
    if (!row || row.length !== unitsCount) throw new StatsInputError(`data[${r}]`, `expected ${unitsCount} units (as data[0]), got ${row?.length}`);
    cells.push(Array.from(row, (v, u) => (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v)) ? null : checkLabel(`data[${r}][${u}]`, v))));
  }
  const present = cells.flat().filter((v): v is Label => v !== null);
  let domain: Label[];
  if (options.valueDomain) {
    domain = options.valueDomain.map((v, i) => checkLabel(`valueDomain[${i}]`, v));
    const known = new Set(domain);
    const outside = present.find(v => !known.has(v));
    if (outside !== undefined) throw new StatsInputError('data', `value ${String(outside)} is not in valueDomain`);
  } else {
    domain = sortedLabels('data', present);
    if (level !== 'nominal' && typeof domain[0] === 'string') {
      throw new StatsInputError('valueDomain', `is required for ${level} alpha with string labels (it gives their order)`);
    }
  }
  if (level === 'interval' || level === 'ratio') {
    domain.forEach((v, i) => {
      if (typeof v !== 'number') throw new StatsInputError(`valueDomain[${i}]`, `${level} alpha needs numeric values, got ${String(v)}`);
    });
  }
  if (domain.length < 2) throw new StatsInputError('data', 'needs at least two distinct values in the value domain');
  const V = domain.length;
  const index = new Map(domain.map((v, i) => [v, i]));
  const o = Array.from({ length: V }, () => new Array<number>(V).fill(0));
  let units = 0;
  const counts = new Array<number>(V);
  for (let u = 0; u < unitsCount; u++) {
    counts.fill(0);
    let m = 0;
    for (let r = 0; r < raters; r++) {
      const v = cells[r]![u]!;
      if (v === null) continue;
      { const j = index.get(v)!; counts[j] = counts[j]! + 1; }
      m++;
    }
    if (m < 2) continue;
    units++;
    for (let c = 0; c < V; c++) {
      if (!counts[c]) continue;
      for (let k = 0; k < V; k++) {
        const pairs = counts[c]! * (counts[k]! - (c === k ? 1 : 0));
        if (pairs) o[c]![k] = o[c]![k]! + pairs / (m - 1);
      }
    }
  }
  if (units === 0) throw new StatsInputError('data', 'needs at least one unit with values from two or more raters');
  const nc = o.map(row => row.reduce((s, v) => s + v, 0));
  const n = nc.reduce((s, v) => s + v, 0);
  const delta2 = distance(level, domain, nc);
  let dObserved = 0;
  let dExpected = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      const d = delta2(c, k);
      dObserved += o[c]![k]! * d;
      dExpected += nc[c]! * nc[k]! * d;
    }
  }
  dObserved /= n;
  dExpected /= n * (n - 1);
  return { alpha: 1 - dObserved / dExpected, level, observedDisagreement: dObserved, expectedDisagreement: dExpected, n, units, values: domain };
}

function distance(level: MeasurementLevel, domain: Label[], nc: number[]): (c: number, k: number) => number {
  if (level === 'nominal') return (c, k) => (c === k ? 0 : 1);
  const x = domain as number[];
  if (level === 'interval') return (c, k) => (x[c]! - x[k]!) ** 2;
  if (level === 'ratio') {
    return (c, k) => {
      const s = x[c]! + x[k]!;
      return s === 0 ? 0 : ((x[c]! - x[k]!) / s) ** 2;
    };
  }
  // Ordinal: cumulative marginals so each distance is O(1).
  const cum = [0];
  for (const v of nc) cum.push(cum[cum.length - 1]! + v);
  return (c, k) => {
    const lo = Math.min(c, k);
    const hi = Math.max(c, k);
    return (cum[hi + 1]! - cum[lo]! - (nc[c]! + nc[k]!) / 2) ** 2;
  };
}
