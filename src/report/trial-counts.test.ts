import { expect, it } from 'vitest';
import type { CallRecord, RunRecord, Trial } from '../core/index.js';
import { openStore } from '../store/index.js';
import { countTrials } from './trial-counts.js';

const run: RunRecord = {
  id: 'run-1', kind: 'suite', createdAt: '2026-12-02T00:00:00.000Z', updatedAt: '2026-12-02T00:00:00.000Z', status: 'running',
  config: { suites: ['s.jsonl'], itemHashes: ['h1'], models: [], repeats: 1, seed: 1, params: {} },
  prices: { source: 'test', date: '2026-12-02', models: {} }, paideiaVersion: 'test',
};
const trial = (id: string, index: number, kind?: string): Trial => ({
  id, runId: 'run-1', index, itemId: 'i1', itemHash: 'h1', test: 'grammar_forms', modelAlias: 'm', modelSpec: 'openai:m', promptVersion: '1',
  repeat: 0, seed: 7, ...(kind ? { kind, target: 't0' } : {}),
});
const call = (trialId: string, status: 'ok' | 'error'): CallRecord => ({
  runId: 'run-1', trialId, step: 0, requestHash: `rq-${trialId}`, request: { messages: [{ role: 'user', content: 'x' }], params: {} }, status,
  ...(status === 'ok' ? { result: { text: 'y', warnings: [] } } : { error: { name: 'Error', message: 'boom' } }),
  attempts: 1, latencyMs: 1, costUsd: 0, cached: false, createdAt: '2026-12-02T00:00:01.000Z',
});

it('counts a run\'s trials by kind and status from the stored statuses, kinds in the order they first appear', async () => {
  const store = await openStore('sqlite::memory:');
  await store.openRun(run);
  await store.saveTrials([trial('t0', 0), trial('j0', 1, 'judge'), trial('t1', 2), trial('t2', 3), trial('j1', 4, 'judge')]);
  await store.saveTrialResult({ runId: 'run-1', trialId: 't0', status: 'done' });
  await store.saveTrialResult({ runId: 'run-1', trialId: 't2', status: 'failed' });
  await store.saveTrialResult({ runId: 'run-1', trialId: 'j1', status: 'done' });
  expect(await countTrials(store, 'run-1')).toEqual({
    total: 5, done: 2, failed: 1, pending: 2,
    byKind: [{ kind: 'item', total: 3, done: 1, failed: 1, pending: 1 }, { kind: 'judge', total: 2, done: 1, failed: 0, pending: 1 }],
  });
  await store.close();
});

it('counts a run stored before trial statuses existed from its calls, and a run that has none yet as all pending', async () => {
  const store = await openStore('sqlite::memory:');
  await store.openRun(run);
  await store.saveTrials([trial('t0', 0), trial('t1', 1), trial('t2', 2)]);
  expect(await countTrials(store, 'run-1')).toEqual({ total: 3, done: 0, failed: 0, pending: 3, byKind: [{ kind: 'item', total: 3, done: 0, failed: 0, pending: 3 }] });
  // Calls without a single trial status: how the trials ended is read from their newest calls.
  await store.saveCall(call('t0', 'ok'));
  await store.saveCall(call('t1', 'error'));
  expect(await countTrials(store, 'run-1')).toEqual({ total: 3, done: 1, failed: 1, pending: 1, byKind: [{ kind: 'item', total: 3, done: 1, failed: 1, pending: 1 }] });
  await store.close();
});
