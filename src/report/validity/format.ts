import type { TauSummary } from '../../validity/index.js';

/** The forms of the validity report; all carry the same numbers. */
export type ValidityFormat = 'json' | 'md' | 'html';

/** A number to 3 decimals, or an en dash when it is missing or undefined (NaN). */
export function num(v: number | null | undefined, digits = 3): string {
  return v === null || v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits);
}

export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return '–';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** "0.412 [0.30, 0.51] [0.28, 0.53]": tau with its 90% and 95% intervals. */
export function tauText(t: TauSummary | null): string {
  if (!t) return '–';
  return `${num(t.tau)} 90% [${num(t.low90, 2)}, ${num(t.high90, 2)}] 95% [${num(t.low95, 2)}, ${num(t.high95, 2)}]`;
}

export function share(v: number, low: number, high: number): string {
  return `${num(100 * v, 1)}% [${num(100 * low, 1)}, ${num(100 * high, 1)}]`;
}
