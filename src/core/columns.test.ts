import { expect, it } from 'vitest';
import { column, interner, orderBy } from './columns.js';

it('grows a column past its capacity and keeps every value appended, in order', () => {
  const c = column('f64', 2);
  for (let i = 0; i < 100; i++) expect(c.push(i / 3)).toBe(i);
  expect(c.length).toBe(100);
  expect([...c.view()]).toEqual(Array.from({ length: 100 }, (_, i) => i / 3));
  const small = column('u8', 1);
  small.push(300); // bytes wrap, as a Uint8Array does
  expect([...small.view()]).toEqual([44]);
});

it('gives each distinct string one code and 0 to no string', () => {
  const s = interner();
  expect(s.code(undefined)).toBe(0);
  const a = s.code('ga');
  expect(s.code('en')).not.toBe(a);
  expect(s.code('ga')).toBe(a);
  expect(s.code('')).toBeGreaterThan(0);
  expect([s.text(a), s.text(0), s.size]).toEqual(['ga', undefined, 4]);
});

// What a comparator sort over row numbers gives: the reference for both paths of orderBy.
const reference = (keys: number[]) => keys.map((_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);

it('orders rows by key, equal keys in row order, whether packed into doubles or not', () => {
  const keys = [5, 3, 5, 0, 3, 9, 0, 5];
  expect([...orderBy(Float64Array.from(keys))]).toEqual(reference(keys));
  // Keys so large that key * rows passes 2^53: the comparator path, same order.
  const big = keys.map(k => k * 2 ** 51);
  expect([...orderBy(Float64Array.from(big))]).toEqual(reference(big));
  expect([...orderBy(new Float64Array(0))]).toEqual([]);
});
