import { expect, it } from 'vitest';
import { extend } from './object.js';

it('gives what a spread gives: the base keys in order, then the new ones, the extra values winning', () => {
  const base = { id: 't1', index: 3, target: undefined as string | undefined, seed: 9 };
  const extra = { index: 4, kind: 'judge', target: 't0' };
  const got = extend(base, extra);
  expect(Object.keys(got)).toEqual(Object.keys({ ...base, ...extra }));
  expect(got).toEqual({ ...base, ...extra });
  expect(got).not.toBe(base);
  // The base is left as it was.
  expect(base).toEqual({ id: 't1', index: 3, target: undefined, seed: 9 });
});
