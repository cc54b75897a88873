/**
 * Number formatting for every report (suite and scenario, Markdown and HTML), so one value reads
 * the same wherever it appears. Each takes the mark to show for a missing value, because the suite
 * tables print an en dash and the scenario tables print `n/a`.
 */

/** What the suite tables show for a number they do not have. */
export const DASH = '–';

/** `x` with `digits` decimals (default 3). */
export function fixed(x: number | null | undefined, digits = 3, missing = DASH): string {
  if (x === null || x === undefined) return missing;
  const text = x.toFixed(digits);
  // -0.0001 rounds to "-0.000": a sign on zero reads as a finding that is not there.
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/** A share on [0, 1] as percentage points with one decimal: 0.5 is `50.0`. */
export function points(x: number | null | undefined, missing = DASH): string {
  return x === null || x === undefined ? missing : (x * 100).toFixed(1);
}

/** A difference of shares in points with its sign: 0.05 is `+5.0`, -0.05 is `-5.0`, 0 is `0.0`. */
export function signedPoints(x: number | null | undefined, missing = DASH): string {
  return x === null || x === undefined ? missing : `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
}

/** US dollars with a `$`: four decimals, five below one cent so a small cost never shows as $0.0000. */
export function dollars(x: number | null | undefined, missing = DASH): string {
  return x === null || x === undefined ? missing : `$${x < 0.01 && x > 0 ? x.toFixed(5) : x.toFixed(4)}`;
}
