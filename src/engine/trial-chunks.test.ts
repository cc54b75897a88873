import { describe, expect, it } from 'vitest';
import type { CallRecord, Store, Trial } from '../core/index.js';
import { openStore } from '../store/index.js';
import { trialChunks } from './trial-chunks.js';
import { trialList, type TrialSource } from './trial-source.js';

const call = (over: Partial<CallRecord>): CallRecord => ({
  runId: 'r', trialId: 't1', step: 0, requestHash: 'rq', request: { messages: [{ role: 'user', content: 'a long prompt' }], params: {} },
  status: 'ok', result: { text: 'answer', warnings: [], usage: { inputTokens: 3, outputTokens: 1 }, raw: { big: 'x'.repeat(100) } },
  attempts: 1, latencyMs: 1, costUsd: 0.25, cached: false, createdAt: '2026-01-01T00:00:00.000Z', ...over,
});
const trials = ['t1', 't2', 't3', 't4', 't5'].map(id => ({ id }) as Trial);
/** The whole list as a queue: plan positions 0..n-1. */
const everyOne = (ts: ReadonlyArray<Trial>) => ({ source: trialList(ts), queue: ts.map((_, k) => k) });

describe('trialChunks', () => {
  it('gives each trial its newest call per step, reading a chunk at a time and the next one ahead', async () => {
    const store = await openStore('sqlite::memory:');
    await store.saveCall(call({ trialId: 't1', status: 'error', result: undefined, error: { name: 'E', message: 'boom' } }));
    await store.saveCall(call({ trialId: 't1', result: { text: 'retried', warnings: [] } }));
    await store.saveCall(call({ trialId: 't4', step: 1, result: { text: 'second', warnings: [] } }));
    const asked: string[][] = [];
    const counting: Store = { ...store, listCalls: (runId, page) => { asked.push([...(page?.trialIds ?? [])]); return store.listCalls(runId, page); } };
    const chunks = trialChunks({ store: counting, runId: 'r', ...everyOne(trials), histories: true, chunk: 2 });
    const got = [];
    for (let k = 0; k < trials.length; k++) {
      const { trial, history } = await chunks.take(k);
      expect(trial).toBe(trials[k]);
      got.push(Array.from(history, c => (c ? `${c.step}:${c.result?.text}` : '-')));
    }
    expect(got).toEqual([['0:retried'], [], [], ['-', '1:second'], []]);
    expect(asked).toEqual([['t1', 't2'], ['t3', 't4'], ['t5']]);
    await store.close();
  });

  it('loads a chunk\'s inputs before any of its trials runs and releases them once all of them finished', async () => {
    const store = await openStore('sqlite::memory:');
    const log: string[] = [];
    let loaded!: () => void;
    const gate = new Promise<void>(resolve => { loaded = resolve; });
    const inputs = {
      async load(ts: ReadonlyArray<Trial>) {
        log.push(`load ${ts.map(t => t.id).join(',')}`);
        if (ts[0]!.id === 't1') await gate;
      },
      release: (ts: ReadonlyArray<Trial>) => void log.push(`release ${ts.map(t => t.id).join(',')}`),
    };
    const chunks = trialChunks({ store, runId: 'r', ...everyOne(trials), histories: false, inputs, chunk: 2 });
    let taken = false;
    const first = chunks.take(0).then(h => { taken = true; return h; });
    await new Promise(resolve => setTimeout(resolve, 5));
    expect(taken).toBe(false);
    loaded();
    expect((await first).history).toEqual([]);
    await chunks.take(1);
    chunks.finished(1);
    expect(log).toEqual(['load t1,t2', 'load t3,t4']);
    chunks.finished(0);
    expect(log.at(-1)).toBe('release t1,t2');
    for (const k of [2, 3, 4]) await chunks.take(k);
    chunks.finished(2);
    chunks.finished(4);
    expect(log).toEqual(['load t1,t2', 'load t3,t4', 'release t1,t2', 'load t5', 'release t5']);
    chunks.finished(3);
    expect(log.at(-1)).toBe('release t3,t4');
    await store.close();
  });

  it('reads the next chunk ahead once a quarter of the chunk is taken, not with its first trial', async () => {
    const store = await openStore('sqlite::memory:');
    const loads: string[] = [];
    const queue = Array.from({ length: 16 }, (_, i) => ({ id: `t${i}` }) as Trial);
    const inputs = { load: async (ts: ReadonlyArray<Trial>) => void loads.push(ts[0]!.id), release: () => undefined };
    const chunks = trialChunks({ store, runId: 'r', ...everyOne(queue), histories: false, inputs, chunk: 8 });
    await chunks.take(0);
    await chunks.take(1);
    expect(loads).toEqual(['t0']);
    await chunks.take(2);
    expect(loads).toEqual(['t0', 't8']);
    await store.close();
  });

  it('a chunk read ahead that fails is reported by the trial that takes it, never as an unhandled rejection', async () => {
    const store = await openStore('sqlite::memory:');
    const inputs = { load: async (ts: ReadonlyArray<Trial>) => { if (ts[0]!.id === 't3') throw new Error('disk gone'); }, release: () => undefined };
    const chunks = trialChunks({ store, runId: 'r', ...everyOne(trials), histories: false, inputs, chunk: 2 });
    await chunks.take(0);
    await new Promise(resolve => setTimeout(resolve, 5));
    await expect(chunks.take(2)).rejects.toThrow('disk gone');
    await store.close();
  });

  it('makes each trial of a queue once, when its chunk is read, from positions in any order', async () => {
    const store = await openStore('sqlite::memory:');
    const made: number[] = [];
    const list = trialList(trials);
    const source: TrialSource = { ...list, at: k => { made.push(k); return list.at(k); } };
    const chunks = trialChunks({ store, runId: 'r', source, queue: [4, 0, 2, 1, 3], histories: false, chunk: 4 });
    expect((await chunks.take(0)).trial.id).toBe('t5');
    expect(made).toEqual([4, 0, 2, 1]);
    expect((await chunks.take(1)).trial.id).toBe('t1');
    expect(made).toEqual([4, 0, 2, 1, 3]);
    for (const k of [2, 3, 4]) await chunks.take(k);
    expect((await chunks.take(4)).trial.id).toBe('t4');
    expect(made).toEqual([4, 0, 2, 1, 3]);
    await store.close();
  });
});
