import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Judgment, RunRecord, Store, Trial } from '../core/index.js';
import { openStore } from '../store/index.js';
import { trialDetail } from './trial-detail.js';

// A run planted in a real SQLite store: two answered trials, the first judged by two judge trials.
let store: Store;
const run: RunRecord = {
  id: 'detail-run', kind: 'scenario', createdAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:00.000Z', status: 'completed',
  config: { suites: [], itemHashes: ['h1'], models: [], repeats: 1, seed: 1, params: {} },
  prices: { source: 'test', date: '2026-12-01', models: {} }, paideiaVersion: '0.0.0',
};
const trial = (id: string, index: number, target?: string): Trial => ({
  id, runId: run.id, index, itemId: 'i1', itemHash: 'h1', test: 'dialogue', modelAlias: 'm', modelSpec: 'baseline:gold', promptVersion: '1',
  repeat: 0, seed: 1, kind: target ? 'scenario-judge' : 'dialogue', ...(target ? { target } : {}),
});
const judgment = (trialId: string, targetTrialId: string, value: number): Judgment => ({
  specVersion: 'paideia.judgment.v1', runId: run.id, trialId, targetTrialId, rater: { alias: 'judge', spec: 'baseline:gold' },
  promptVariant: 'default', repeat: 0, fields: { clarity: value * 4 }, value, callSeq: null, producer: { name: 'rubric', version: '1', args: {} },
});
const trials = [trial('t1', 0), trial('j1a', 1, 't1'), trial('j1b', 2, 't1'), trial('t2', 3), trial('j2', 4, 't2')];

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  await store.openRun(run);
  await store.saveTrials(trials);
  for (const t of trials) {
    await store.saveCall({
      runId: run.id, trialId: t.id, step: 0, requestHash: `rq-${t.id}`, request: { messages: [{ role: 'user', content: `ask ${t.id}` }], params: {} },
      status: 'ok', result: { text: `answer ${t.id}`, warnings: [], usage: { inputTokens: 1, outputTokens: 1 } },
      attempts: 1, latencyMs: 1, costUsd: 0, cached: false, createdAt: '2026-12-01T00:00:00.000Z',
    });
  }
  const scorer = { name: 'exact', version: '1', args: {} };
  for (const id of ['t1', 't2']) await store.saveTrialResult({ runId: run.id, trialId: id, status: 'done', scores: [{ runId: run.id, trialId: id, scorer, value: id === 't1' ? 1 : 0 }] });
  for (const [id, target, value] of [['j1a', 't1', 0.5], ['j1b', 't1', 0.25], ['j2', 't2', 1]] as const) {
    await store.saveTrialResult({ runId: run.id, trialId: id, status: 'done', judgments: [judgment(id, target, value)] });
  }
});
afterAll(async () => { await store.close(); });

describe('trialDetail', () => {
  it('gives a trial its own calls and scores and each of its judges with that judge\'s judgments and calls, reading no whole-run list', async () => {
    const wholeRunReads: string[] = [];
    const watched = new Proxy(store, { get: (t, p) => {
      const f = Reflect.get(t, p) as unknown;
      if (typeof f !== 'function') return f;
      return (...a: unknown[]) => {
        const only = a[1] as { trialIds?: unknown; targetTrialIds?: unknown } | undefined;
        if (['listTrials', 'listScores', 'listJudgments', 'listCalls', 'listTrialStatuses'].includes(String(p)) && !only?.trialIds && !only?.targetTrialIds) wholeRunReads.push(String(p));
        return (f as (...x: unknown[]) => unknown).apply(t, a);
      };
    } });
    const detail = await trialDetail(watched, run.id, 't1', s => s) as unknown as {
      trial: Trial; calls: Array<{ text: string }>; scores: Array<{ trialId: string; value: number }>;
      judges: Array<{ trial: Trial; judgments: Judgment[]; calls: Array<{ text: string }> }>;
    };
    expect(wholeRunReads).toEqual([]);
    expect(detail.trial).toEqual(trials[0]);
    expect(detail.calls.map(c => c.text)).toEqual(['answer t1']);
    expect(detail.scores.map(s => [s.trialId, s.value])).toEqual([['t1', 1]]);
    expect(detail.judges.map(j => [j.trial.id, j.judgments.map(x => x.value), j.calls.map(c => c.text)])).toEqual([
      ['j1a', [0.5], ['answer j1a']], ['j1b', [0.25], ['answer j1b']],
    ]);
    expect(await trialDetail(store, run.id, 'nope', s => s)).toBeUndefined();
    expect(await trialDetail(store, 'other-run', 't1', s => s)).toBeUndefined();
  });
});
