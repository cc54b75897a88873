import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** Reads JSON relative to the calling test file: loadJson(import.meta.url, '../../../test/conformance/x.json'). */
export function loadJson<T>(base: string, relative: string): T {
  return JSON.parse(readFileSync(new URL(relative, base), 'utf8')) as T;
}

/**
 * Asserts |actual - expected| <= abs + rel * |expected|; a null or NaN expectation (JSON has no
 * NaN) requires NaN.
 */
export function expectClose(
  actual: number,
  expected: number | null,
  tolerance: { abs?: number; rel?: number },
  label: string,
): void {
  if (expected === null || Number.isNaN(expected)) {
    expect(actual, `${label}: expected NaN`).toBeNaN();
    return;
  }
  const bound = (tolerance.abs ?? 0) + (tolerance.rel ?? 0) * Math.abs(expected);
  const error = Math.abs(actual - expected);
  expect(error <= bound || actual === expected, `${label}: got ${actual}, expected ${expected} (error ${error} > ${bound})`).toBe(true);
}

/** Small seeded generator for test inputs (32-bit state mixed as in splitmix/murmur finalisers). */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4294967296;
  };
}

/** n draws from `draw`, one per index. */
export function generate<T = number>(n: number, draw: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => draw(i));
}
