import { describe, expect, it } from 'vitest';
import type { TrialRow } from './run-index.js';
import { parseTrialQuery, queryTrials } from './trial-query.js';

const row = (i: number, model: string, itemId: string, score: number | null, status: TrialRow['status'] = 'done', output = ''): TrialRow => ({
  id: `t${i}`, index: i, itemId, test: 'exercises', model, repeat: 0, kind: 'item', status, score, costUsd: 0, latencyMs: 0, calls: 1, input: `input ${itemId}`, output, inputCut: false, outputCut: false,
});

const rows = [
  row(0, 'a', 'i1', 1), row(1, 'b', 'i1', 1),
  row(2, 'a', 'i2', 0, 'done', 'wrong <b>x</b>'), row(3, 'b', 'i2', 1),
  row(4, 'a', 'i3', null, 'failed', 'error: 500'), row(5, 'b', 'i3', 0.5),
];
const q = (s: string) => parseTrialQuery(new URLSearchParams(s));
const ids = (s: string) => queryTrials(rows, q(s)).rows.map(r => r.id);

describe('queryTrials', () => {
  it('keeps failures, passes, errors and items where models differ', () => {
    expect(ids('show=failures')).toEqual(['t2', 't5']);
    expect(ids('show=passes')).toEqual(['t0', 't1', 't3']);
    expect(ids('show=errors')).toEqual(['t4']);
    expect(ids('show=differences')).toEqual(['t2', 't3', 't4', 't5']);
    expect(ids('show=differences&model=b')).toEqual(['t3', 't5']);
  });

  it('searches inputs and outputs by a case-insensitive regular expression, and pages with the total', () => {
    expect(ids('q=WRONG.*x')).toEqual(['t2']);
    expect(ids('q=input i[23]')).toEqual(['t2', 't3', 't4', 't5']);
    const page = queryTrials(rows, q('offset=2&limit=3'));
    expect(page.total).toBe(6);
    expect(page.rows.map(r => r.id)).toEqual(['t2', 't3', 't4']);
  });

  it('names the parameter of a bad query', () => {
    expect(() => q('show=nope')).toThrow(/show.*expected one of all, failures/);
    expect(() => q('q=(')).toThrow(/field "?q"?.*not a regular expression/);
    expect(q('limit=100000').limit).toBe(200);
  });
});
