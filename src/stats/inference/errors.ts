import { PaideiaError } from '../../core/errors.js';

/**
 * A statistics function was given input it cannot use (NaN, mismatched lengths, too few points,
 * a level outside (0, 1) ...). `argument` names the offending parameter so callers can point at it.
 */
export class StatsInputError extends PaideiaError {
  constructor(readonly argument: string, message: string) {
    super(`${argument}: ${message}`);
    this.name = 'StatsInputError';
  }
}

/** Array-like of numbers accepted by every statistics function. */
export type NumericArray = ArrayLike<number>;

/** Throws unless `x` holds at least `min` finite numbers; returns it as a Float64Array copy. */
export function finiteArray(name: string, x: unknown, min = 1): Float64Array {
  if (x === null || typeof x !== 'object' || typeof (x as { length?: unknown }).length !== 'number') {
    throw new StatsInputError(name, 'expected an array of numbers');
  }
  const arr = x as ArrayLike<unknown>;
  if (arr.length < min) {
    throw new StatsInputError(name, `needs at least ${min} value(s), got ${arr.length}`);
  }
  const out = new Float64Array(arr.length);
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new StatsInputError(`${name}[${i}]`, `expected a finite number, got ${String(v)}`);
    }
    out[i] = v;
  }
  return out;
}

/** Throws unless both arrays have the same length (for paired data). */
export function sameLength(nameA: string, a: ArrayLike<unknown>, nameB: string, b: ArrayLike<unknown>): void {
  if (a.length !== b.length) {
    throw new StatsInputError(nameB, `must have the same length as ${nameA} (${a.length}), got ${b.length}`);
  }
}

/** Throws unless `level` is a number strictly between 0 and 1. */
export function confidenceLevel(name: string, level: unknown): number {
  if (typeof level !== 'number' || !(level > 0 && level < 1)) {
    throw new StatsInputError(name, `must be a number strictly between 0 and 1, got ${String(level)}`);
  }
  return level;
}

/** Throws unless `v` is an integer in [min, max]. */
export function integerIn(name: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new StatsInputError(name, `must be an integer in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}
