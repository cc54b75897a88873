import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelSpec, type Store } from '../core/index.js';
import { createBaselineModel } from '../providers/index.js';
import { builtInScorers } from '../scoring/builtins.js';
import { openStore } from '../store/index.js';
import { runSuite } from '../suites/run.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { RunIndex } from './run-index.js';
import { runResults } from './results.js';
import { parseTrialQuery, queryTrials } from './trial-query.js';

// A real suite run: 20 public English exercises answered by the gold and the copy baselines.
let store: Store;
let runId: string;
let listCallsCalls = 0;
beforeAll(async () => {
  const inner = await openStore('sqlite::memory:');
  store = new Proxy(inner, { get: (t, p) => (p === 'listCalls' ? (...a: Parameters<Store['listCalls']>) => { listCallsCalls++; return t.listCalls(...a); } : Reflect.get(t, p)) });
  const specs = ['baseline:gold', 'baseline:copy'].map(s => parseModelSpec(s));
  const { run } = await runSuite({
    store, suites: ['data/samples/english/exercises.jsonl'], models: specs, repeats: 1, seed: 3, params: {}, testDefinitions: BUILT_IN_TESTS,
    scorers: builtInScorers(), createModel: s => createBaselineModel(s.model as 'gold'), prices: { source: 'test', date: '2026-12-01', models: { 'baseline:*': { input: 0, output: 0 } } },
    concurrency: () => 4, retryErrors: false,
  });
  runId = run.id;
});
afterAll(async () => { await store.close(); });

describe('RunIndex and runResults', () => {
  it('holds one row per trial with its status, score and texts, and reads a finished run once', async () => {
    const index = new RunIndex(store, runId);
    const run = (await store.getRun(runId))!;
    const rows = await index.list(`${run.status}@${run.updatedAt}`, false, 1000);
    expect(rows).toHaveLength(40);
    expect(rows.every(r => r.status === 'done' && r.calls === 1)).toBe(true);
    const gold = rows.filter(r => r.model === 'baseline:gold');
    expect(gold.every(r => r.score === 1)).toBe(true);
    expect(rows.filter(r => r.model === 'baseline:copy').every(r => r.score === 0)).toBe(true);
    expect(gold[0]!.input).toMatch(/____/);
    expect(gold[0]!.output.length).toBeGreaterThan(0);
    const reads = listCallsCalls;
    await index.list(`${run.status}@${run.updatedAt}`, false, 0);
    expect(listCallsCalls).toBe(reads);
    expect(queryTrials(rows, parseTrialQuery(new URLSearchParams('show=failures'))).total).toBe(20);
    expect(queryTrials(rows, parseTrialQuery(new URLSearchParams('show=differences&model=baseline:gold'))).total).toBe(20);
  });

  it('gives each model its mean over items with the interval and n', async () => {
    const results = await runResults(store, runId);
    expect(results.map(r => [r.measure, r.model, r.mean, r.n, r.unscored])).toEqual([
      ['exact', 'baseline:copy', 0, 20, 0], ['exact', 'baseline:gold', 1, 20, 0],
    ]);
    expect(results.map(r => [r.low, r.high])).toEqual([[0, 0], [1, 1]]);
  });
});
