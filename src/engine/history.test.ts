import { describe, expect, it } from 'vitest';
import type { CallRecord, Store, Trial } from '../core/index.js';
import { openStore } from '../store/index.js';
import { historiesInOrder } from './history.js';

const call = (over: Partial<CallRecord>): CallRecord => ({
  runId: 'r', trialId: 't1', step: 0, requestHash: 'rq', request: { messages: [{ role: 'user', content: 'a long prompt' }], params: {} },
  status: 'ok', result: { text: 'answer', warnings: [], usage: { inputTokens: 3, outputTokens: 1 }, raw: { big: 'x'.repeat(100) } },
  attempts: 1, latencyMs: 1, costUsd: 0.25, cached: false, createdAt: '2026-01-01T00:00:00.000Z', ...over,
});

describe('historiesInOrder', () => {
  it('gives each trial its newest call per step, reading a chunk at a time and only what is asked', async () => {
    const store = await openStore('sqlite::memory:');
    const trials = ['t1', 't2', 't3', 't4', 't5'].map(id => ({ id }) as Trial);
    await store.saveCall(call({ trialId: 't1', status: 'error', result: undefined, error: { name: 'E', message: 'boom' } }));
    await store.saveCall(call({ trialId: 't1', result: { text: 'retried', warnings: [] } }));
    await store.saveCall(call({ trialId: 't4', step: 1, result: { text: 'second', warnings: [] } }));
    const asked: string[][] = [];
    const counting: Store = { ...store, listCalls: (runId, page) => { asked.push([...(page?.trialIds ?? [])]); return store.listCalls(runId, page); } };
    const historyOf = historiesInOrder(counting, 'r', trials, 2);
    const got = [];
    for (let k = 0; k < trials.length; k++) got.push(Array.from(await historyOf(k), c => (c ? `${c.step}:${c.result?.text}` : '-')));
    expect(got).toEqual([['0:retried'], [], [], ['-', '1:second'], []]);
    // chunks of two, each read once, the next one read ahead
    expect(asked).toEqual([['t1', 't2'], ['t3', 't4'], ['t5']]);
    await store.close();
  });
});
