import { expect, it } from 'vitest';
import type { Score } from '../core/index.js';
import { trialColumns, type TrialRow } from './trial-columns.js';

const scorer = { name: 'exact', version: '1', args: {} };
const score = (value: number | null): Score => ({ runId: 'r', trialId: 't', scorer, value });
const row = (o: Partial<TrialRow> & Pick<TrialRow, 'item' | 'repeat' | 'index'>): TrialRow => ({
  model: 'm', test: 'exercises', costUsd: 0, failed: false, score: score(1), reason: undefined, answer: undefined, ...o,
});

it('settles trials read in id order into results by their first trial in plan order, each summed in (repeat, plan index) order', () => {
  const rows = trialColumns(3);
  // Read out of plan order, as pages by trial id give them.
  rows.add(row({ item: 1, repeat: 2, index: 1, costUsd: -1e16, failed: true }));
  rows.add(row({ item: 0, repeat: 0, index: 2, score: score(0.5) }));
  rows.add(row({ item: 1, repeat: 0, index: 1, costUsd: 1e16, score: score(1), answer: 'first' }));
  rows.add(row({ item: 1, repeat: 1, index: 1, costUsd: 1, score: score(0), answer: 'second' }));
  rows.add(row({ item: 0, repeat: 1, index: 2, score: score(0.5), reason: 'why' }));
  rows.add(row({ item: 2, repeat: 0, index: 0, score: score(null) }));
  rows.add(row({ item: 2, repeat: 0, index: 3, model: 'n', score: undefined }));
  const r = rows.settle();
  const view = Array.from({ length: r.size }, (_, k) => ({
    ...r.cells[r.cellOf[k]!], item: r.itemOf[k], value: r.value(k), consistency: r.consistency(k), failed: r.failed(k),
    unscored: r.unscored(k), costUsd: r.costUsd(k), answer: r.lastAnswer(k), reason: r.lastReason(k), scorer: r.scorer(k)?.name,
  }));
  expect(view).toEqual([
    { model: 'm', test: 'exercises', item: 2, value: null, consistency: 'one', failed: 0, unscored: 1, costUsd: 0, answer: undefined, reason: undefined, scorer: 'exact' },
    // Plan order: (1e16 + 1) - 1e16 = 0 (the 1 is lost); read order would give (-1e16 + 1e16) + 1 = 1.
    { model: 'm', test: 'exercises', item: 1, value: 0.5, consistency: 'differ', failed: 1, unscored: 0, costUsd: 0, answer: 'second', reason: undefined, scorer: 'exact' },
    { model: 'm', test: 'exercises', item: 0, value: 0.5, consistency: 'same', failed: 0, unscored: 0, costUsd: 0, answer: undefined, reason: 'why', scorer: 'exact' },
    { model: 'n', test: 'exercises', item: 2, value: null, consistency: 'one', failed: 0, unscored: 0, costUsd: 0, answer: undefined, reason: undefined, scorer: undefined },
  ]);
  expect(r.find(0, 1)).toBe(1);
  expect(r.find(1, 0)).toBeUndefined();
});
