import { ConfigError } from '../core/index.js';

/** Parse a number flag, naming the flag on bad input. */
export function numberFlag(name: string, value: string | undefined, check: (n: number) => boolean = Number.isFinite, hint = 'a number'): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new ConfigError([{ field: name, message: `expected ${hint}, got "${value}"` }]);
  return n;
}

export const positiveInt = (n: number) => Number.isInteger(n) && n >= 1;
export const nonNegative = (n: number) => Number.isFinite(n) && n >= 0;

/** Comma-separated list flag; repeated flags are joined. */
export function listFlag(values: string[] | string | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const list = (Array.isArray(values) ? values : [values]).flatMap(v => v.split(',')).map(v => v.trim()).filter(Boolean);
  return list.length ? list : undefined;
}
