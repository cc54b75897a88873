import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { CallRecord, RunRecord, Trial } from '../../core/index.js';
import { openStore } from '../index.js';
import { createDatabase, startTestCluster, type TestCluster } from './testing/cluster.js';

let cluster: Promise<TestCluster> | undefined;
const started = () => (cluster ??= startTestCluster());
afterAll(async () => (await cluster)?.destroy());

const run: RunRecord = {
  id: 'run-1', kind: 'suite', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', status: 'running',
  config: { suites: ['s.jsonl'], itemHashes: ['h1'], models: [], repeats: 1, seed: 1, params: {} },
  prices: { source: 'built-in', date: '2026-01-01', models: {} }, paideiaVersion: '0.0.0',
};
const trial: Trial = {
  id: 't1', runId: 'run-1', index: 0, itemId: 'i1', itemHash: 'h1', test: 'grammar_forms', modelAlias: 'm',
  modelSpec: 'openai:m', promptVersion: '1', repeat: 0, seed: 7,
};
const call: CallRecord = {
  runId: 'run-1', trialId: 't1', step: 0, requestHash: 'rq', request: { messages: [{ role: 'user', content: 'x' }], params: {} },
  status: 'ok', result: { text: 'y', warnings: [] }, attempts: 1, latencyMs: 1, costUsd: 0, cached: false, createdAt: '2026-01-01T00:00:01.000Z',
};

// The pool sends each write over whichever connection is free: a trial's result must still wait
// for the call saved before it, or a kill -9 between the two leaves a finished trial without its call.
it('a trial result waits for the call saved before it, and fails with it', async () => {
  const url = createDatabase(await started(), 'trial_order');
  const store = await openStore(url);
  await store.openRun(run);
  await store.saveTrials([trial, { ...trial, id: 't2', index: 1 }]);
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    // Hold back every insert into calls: the call's write blocks until the lock goes.
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE calls IN EXCLUSIVE MODE');
    const callSaved = store.saveCall(call);
    const resultSaved = store.saveTrialResult({ runId: 'run-1', trialId: 't1', status: 'done' });
    // Another trial's result does not wait for it.
    await store.saveTrialResult({ runId: 'run-1', trialId: 't2', status: 'done' });
    await new Promise(resolve => setTimeout(resolve, 300));
    const during = await locker.query(`SELECT id, status FROM trials WHERE run_id = 'run-1' ORDER BY id`);
    expect(during.rows).toEqual([{ id: 't1', status: null }, { id: 't2', status: 'done' }]);
    await locker.query('COMMIT');
    await Promise.all([callSaved, resultSaved]);
    expect((await store.listCalls('run-1')).map(c => c.trialId)).toEqual(['t1']);
    expect(await store.listTrialStatuses('run-1')).toEqual(new Map([['t1', 'done'], ['t2', 'done']]));

    // A call refused (its worker holds no claim) takes the result made after it down with it.
    const refused = store.saveCall({ ...call, trialId: 't2', requestHash: 'rq2' }, { workerId: 'nobody' });
    const after = store.saveTrialResult({ runId: 'run-1', trialId: 't2', status: 'failed' });
    await expect(refused).rejects.toThrow(/no longer holds run run-1/);
    await expect(after).rejects.toThrow(/no longer holds run run-1/);
    expect((await store.listTrialStatuses('run-1')).get('t2')).toBe('done');
  } finally {
    await locker.end();
    await store.close();
  }
}, 60_000);
