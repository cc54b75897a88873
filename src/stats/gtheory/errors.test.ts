import { describe, expect, it } from 'vitest';
import { StatsInputError } from '../inference/errors.js';
import { dStudy, varianceComponents } from './index.js';

const grid = (np: number, ni: number) => {
  const rows: Record<string, string | number>[] = [];
  for (let p = 0; p < np; p++) for (let i = 0; i < ni; i++) rows.push({ p, i, y: ((p * 7 + i * 3) % 5) + p / 10 });
  return rows;
};

describe('varianceComponents input checks', () => {
  it('names the argument for each problem', () => {
    const rows = grid(4, 3);
    expect(() => varianceComponents([], { facets: ['p'], value: 'y' })).toThrow(/^rows:/);
    expect(() => varianceComponents(rows, { facets: [], value: 'y' })).toThrow(/^facets:/);
    expect(() => varianceComponents(rows, { facets: ['p', 'p'], value: 'y' })).toThrow(/^facets: has duplicate/);
    expect(() => varianceComponents(rows, { facets: ['p', 'i'], value: 'p' })).toThrow(/^value:/);
    expect(() => varianceComponents(rows.slice(1), { facets: ['p', 'i'], value: 'y' })).toThrow(/^rows: expected one row per cell/);
    expect(() => varianceComponents([...rows.slice(1), rows[1]!], { facets: ['p', 'i'], value: 'y' })).toThrow(/^rows\[11\]: repeats a cell/);
    expect(() => varianceComponents(rows.map((r, k) => (k === 5 ? { ...r, y: Number.NaN } : r)), { facets: ['p', 'i'], value: 'y' }))
      .toThrow(/^rows\[5\]\.y:/);
    expect(() => varianceComponents(rows.map(({ i: _i, ...r }) => r), { facets: ['p', 'i'], value: 'y' })).toThrow(/^rows\[0\]\.i:/);
    expect(() => varianceComponents(grid(4, 1), { facets: ['p', 'i'], value: 'y' })).toThrow(/"i" has 1 level/);
    expect(() => varianceComponents(rows, { facets: ['p', 'i'], value: 'y', nesting: { i: 'x' } })).toThrow(/^nesting:/);
    expect(() => varianceComponents(rows, { facets: ['p', 'i'], value: 'y', nesting: { i: 'p', p: 'i' } })).toThrow(/circular/);
    expect(() => varianceComponents(rows, { facets: ['p', 'i'], value: 'y', method: 'ml' as never })).toThrow(/^method:/);
    expect(() => varianceComponents(rows, { facets: ['p', 'i'], value: 'y' })).not.toThrow();
  });

  it('unequal nested sizes are reported as unbalanced', () => {
    const rows = [
      { t: 1, r: 'a', p: 1, y: 1 }, { t: 1, r: 'b', p: 1, y: 2 }, { t: 2, r: 'c', p: 1, y: 3 },
      { t: 1, r: 'a', p: 2, y: 2 }, { t: 1, r: 'b', p: 2, y: 2 }, { t: 2, r: 'c', p: 2, y: 5 },
    ];
    expect(() => varianceComponents(rows, { facets: ['p', 't', 'r'], value: 'y', nesting: { r: 't' } })).toThrow(/unbalanced/);
  });

  it('dStudy checks its options', () => {
    const r = varianceComponents(grid(4, 3), { facets: ['p', 'i'], value: 'y' });
    expect(() => dStudy(r, { objectOfMeasurement: 'x' })).toThrow(StatsInputError);
    expect(() => dStudy(r, { objectOfMeasurement: 'p', facets: { i: 0 } })).toThrow(/^facets\.i:/);
    expect(() => dStudy(r, { objectOfMeasurement: 'p', facets: { q: 2 } })).toThrow(/^facets\.q:/);
    expect(() => dStudy(r, { objectOfMeasurement: 'p', fixed: ['p'] })).toThrow(/^fixed:/);
    // Defaults to the G-study sizes.
    expect(dStudy(r, { objectOfMeasurement: 'p' }).sampleSizes).toEqual({ i: 3 });
  });
});
