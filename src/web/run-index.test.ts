import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelSpec, type ChatModel, type Store } from '../core/index.js';
import { createBaselineModel } from '../providers/index.js';
import { builtInScorers } from '../scoring/builtins.js';
import { openStore } from '../store/index.js';
import { runSuite } from '../suites/run.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { RunIndex } from './run-index.js';
import { runResults } from './results.js';
import { parseTrialQuery, queryTrials } from './trial-query.js';
import { queryTrialsFully } from './trial-query-text.js';

// A real suite run: 20 public English exercises answered by the gold and the copy baselines.
let store: Store;
let runId: string;
let listCallsCalls = 0;
const pages: Array<Parameters<Store['listCalls']>[1]> = [];
// A third model answers past the index's 2,000 kept characters: its needle sits at character 3,500.
const LONG = (item: string) => `${'filler '.repeat(500)}needle-${item}`;
const long: ChatModel = {
  specVersion: 'paideia.chat-model.v1', provider: 'openai', modelId: 'long', isBaseline: false,
  async generate(request) { return { text: LONG(String(request.context?.itemId)), warnings: [], usage: { inputTokens: 1, outputTokens: 1 } }; },
};
beforeAll(async () => {
  const inner = await openStore('sqlite::memory:');
  store = new Proxy(inner, { get: (t, p) => (p === 'listCalls' ? (...a: Parameters<Store['listCalls']>) => { listCallsCalls++; pages.push(a[1]); return t.listCalls(...a); } : Reflect.get(t, p)) });
  const specs = ['baseline:gold', 'baseline:copy', 'long=openai:long'].map(s => parseModelSpec(s));
  const { run } = await runSuite({
    store, suites: ['data/samples/english/exercises.jsonl'], models: specs, repeats: 1, seed: 3, params: {}, testDefinitions: BUILT_IN_TESTS,
    scorers: builtInScorers(), createModel: s => (s.alias === 'long' ? long : createBaselineModel(s.model as 'gold')), prices: { source: 'test', date: '2026-12-01', models: { 'baseline:*': { input: 0, output: 0 }, 'openai:long': { input: 0, output: 0 } } },
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
    expect(rows).toHaveLength(60);
    expect(rows.every(r => r.status === 'done' && r.calls === 1)).toBe(true);
    const gold = rows.filter(r => r.model === 'baseline:gold');
    expect(gold.every(r => r.score === 1)).toBe(true);
    expect(rows.filter(r => r.model === 'baseline:copy').every(r => r.score === 0)).toBe(true);
    expect(gold[0]!.input).toMatch(/____/);
    expect(gold[0]!.output.length).toBeGreaterThan(0);
    const reads = listCallsCalls;
    await index.list(`${run.status}@${run.updatedAt}`, false, 0);
    expect(listCallsCalls).toBe(reads);
    expect(queryTrials(rows, parseTrialQuery(new URLSearchParams('show=failures&model=baseline:copy'))).total).toBe(20);
    expect(queryTrials(rows, parseTrialQuery(new URLSearchParams('show=differences&model=baseline:gold'))).total).toBe(20);
  });

  it('draws a plain page from its trials\' own calls while the first build runs, the same as the built index', async () => {
    const run = (await store.getRun(runId))!;
    const stamp = `${run.status}@${run.updatedAt}`;
    const fresh = new RunIndex(store, runId);
    pages.length = 0;
    const early = await fresh.page(stamp, false, 1000, 25, 10);
    // Answered from one read of those ten trials' calls (the build's own reads page the whole run).
    expect(pages.filter(p => p?.trialIds).map(p => p!.trialIds!.length)).toEqual([10]);
    const built = await fresh.list(stamp, false, 1000);
    expect(early).toEqual({ total: 60, rows: built.slice(25, 35) });
    expect(await fresh.page(stamp, false, 1000, 25, 10)).toEqual(early);
  });

  it('reads a fresh index\'s first page for its own trials alone, before any read of the whole run, and builds the index behind it', async () => {
    const run = (await store.getRun(runId))!;
    const stamp = `${run.status}@${run.updatedAt}`;
    const before: string[] = [];
    const after: string[] = [];
    let answered = false;
    // Each read as "method what": the window, how many ids it is restricted to, or "whole run".
    const what = (method: string, a: unknown[]): string => {
      if (method === 'listTopTrials') return `${(a[1] as { offset: number }).offset}+${(a[1] as { limit: number }).limit}`;
      if (method === 'listJudgeTrials') return String((a[1] as string[]).length);
      const only = a[1] as { trialIds?: string[]; targetTrialIds?: string[] } | undefined;
      return String((only?.trialIds ?? only?.targetTrialIds)?.length ?? 'whole run');
    };
    const watched = new Proxy(store, { get: (t, p) => {
      const f = Reflect.get(t, p) as unknown;
      if (typeof f !== 'function' || !String(p).startsWith('list')) return f;
      return (...a: unknown[]) => {
        (answered ? after : before).push(`${String(p)} ${what(String(p), a)}`);
        return (f as (...x: unknown[]) => unknown).apply(t, a);
      };
    } });
    const fresh = new RunIndex(watched, runId);
    const early = await fresh.page(stamp, false, 1000, 25, 10);
    answered = true;
    expect(before.sort()).toEqual([
      'listCalls 10', 'listJudgeTrials 10', 'listJudgments 10', 'listScores 10', 'listTopTrials 25+10', 'listTrialStatuses 10',
    ]);
    const built = await fresh.list(stamp, false, 1000);
    expect(after).toContain('listCalls whole run');
    expect(early).toEqual({ total: 60, rows: built.slice(25, 35) });
  });

  it('counts a judge\'s calls and judgments towards the trial it judges on a page read before the index, as the index does', async () => {
    const suiteRun = (await store.getRun(runId))!;
    const base = (await store.listTrials(runId))[0]!;
    const run = await store.openRun({ ...suiteRun, id: 'judged-run', status: 'completed' });
    const top = [0, 1, 2, 3, 4, 5].map(i => ({ ...base, runId: run.id, id: `t${i}`, index: i * 10, kind: 'dialogue' }));
    const judges = [['j1a', 't1', 11], ['j1b', 't1', 12], ['j4', 't4', 41]].map(([id, target, index]) => ({ ...base, runId: run.id, id: id as string, index: index as number, kind: 'scenario-judge', target: target as string }));
    await store.saveTrials([...judges, ...top]);
    const call = (trialId: string, text: string, costUsd: number) => store.saveCall({
      runId: run.id, trialId, step: 0, requestHash: `rq-${trialId}`, request: { messages: [{ role: 'user', content: `ask ${trialId}` }], params: {} },
      status: 'ok', result: { text, warnings: [], usage: { inputTokens: 1, outputTokens: 1 } }, attempts: 1, latencyMs: 2, costUsd, cached: false, createdAt: '2026-12-01T00:00:00.000Z',
    });
    for (const t of top) await call(t.id, `answer ${t.id}`, 0.01);
    for (const j of judges) await call(j.id, '{"clarity": 3}', 0.1);
    const scorer = { name: 'exact', version: '1', args: {} };
    for (const t of top.slice(0, 5)) await store.saveTrialResult({ runId: run.id, trialId: t.id, status: t.id === 't3' ? 'failed' : 'done', scores: [{ runId: run.id, trialId: t.id, scorer, value: 1 }] });
    const judgment = (trialId: string, targetTrialId: string, value: number) => ({
      specVersion: 'paideia.judgment.v1' as const, runId: run.id, trialId, targetTrialId, rater: { alias: 'judge', spec: 'baseline:gold' },
      promptVariant: 'default', repeat: 0, fields: { clarity: 3 }, value, callSeq: null, producer: { name: 'rubric', version: '1', args: {} },
    });
    for (const [id, target, value] of [['j1a', 't1', 0.5], ['j1b', 't1', 0], ['j4', 't4', 0.25]] as const) {
      await store.saveTrialResult({ runId: run.id, trialId: id, status: 'done', judgments: [judgment(id, target, value)] });
    }
    const stamp = `${run.status}@${run.updatedAt}`;
    const fresh = new RunIndex(store, run.id);
    const early = await fresh.page(stamp, false, 1000, 1, 4);
    expect(early.rows.map(r => [r.id, r.status, r.calls, Number(r.costUsd.toFixed(6)), r.score, r.input, r.output])).toEqual([
      ['t1', 'done', 3, 0.21, 0.5, 'ask t1', 'answer t1'], ['t2', 'done', 1, 0.01, 1, 'ask t2', 'answer t2'],
      ['t3', 'failed', 1, 0.01, 1, 'ask t3', 'answer t3'], ['t4', 'done', 2, 0.11, 0.625, 'ask t4', 'answer t4'],
    ]);
    expect(await fresh.page(stamp, false, 1000, 6, 5)).toEqual({ total: 6, rows: [] });
    const built = await fresh.list(stamp, false, 1000);
    expect(early).toEqual({ total: 6, rows: built.slice(1, 5) });
    expect(built.at(-1)).toMatchObject({ id: 't5', status: 'pending', score: null, calls: 1 });
  });

  it('searches whole texts, reading only the cut ones from the store, in batches of trials', async () => {
    const run = (await store.getRun(runId))!;
    const index = new RunIndex(store, runId);
    const rows = await index.list(`${run.status}@${run.updatedAt}`, false, 1000);
    const longRows = rows.filter(r => r.model === 'long');
    expect(longRows.every(r => r.outputCut && r.output.length === 2000 && !r.output.includes('needle'))).toBe(true);
    const search = (s: string) => queryTrialsFully(index, rows, parseTrialQuery(new URLSearchParams(s)));
    pages.length = 0;
    const found = await search('q=needle-');
    expect(found.total).toBe(20);
    expect(found.rows.every(r => r.model === 'long')).toBe(true);
    expect(pages.every(p => p?.trialIds !== undefined && p.trialIds.length <= 200)).toBe(true);
    // The kept part ends in "fille"; the whole text does not, so an anchored match there is no match.
    expect(longRows[0]!.output.endsWith('fille')).toBe(true);
    expect((await search('q=fille$')).total).toBe(0);
    expect((await search(`q=needle-${longRows[3]!.itemId}$`)).rows.map(r => r.id)).toEqual([longRows[3]!.id]);
    // Texts kept whole are searched in the index alone; a search asked again reads nothing.
    pages.length = 0;
    expect((await search('q=____&model=baseline:gold')).total).toBe(20);
    expect((await search('q=needle-')).total).toBe(20);
    expect(pages).toEqual([]);
  });

  it('tries a first build that failed again on the next request', async () => {
    const run = (await store.getRun(runId))!;
    let fail = true;
    const flaky = new Proxy(store, { get: (t, p) => (p === 'listCalls' ? (...a: Parameters<Store['listCalls']>) => {
      if (fail) { fail = false; return Promise.reject(new Error('disk went away')); }
      return t.listCalls(...a);
    } : Reflect.get(t, p)) });
    const index = new RunIndex(flaky, runId);
    const stamp = `${run.status}@${run.updatedAt}`;
    await expect(index.list(stamp, false, 1000)).rejects.toThrow(/disk went away/);
    expect((await index.page(stamp, false, 1000, 0, 5)).rows.map(r => r.calls)).toEqual([1, 1, 1, 1, 1]);
    const rows = await index.list(stamp, false, 1000);
    expect(rows.length === 60 && rows.every(r => r.calls === 1)).toBe(true);
  });

  it('gives each model its mean over items with the interval and n', async () => {
    const results = await runResults(store, runId);
    expect(results.map(r => [r.measure, r.model, r.mean, r.n, r.unscored])).toEqual([
      ['exact', 'baseline:copy', 0, 20, 0], ['exact', 'baseline:gold', 1, 20, 0], ['exact', 'long', 0, 20, 0],
    ]);
    expect(results.map(r => [r.low, r.high])).toEqual([[0, 0], [1, 1], [0, 0]]);
  });

  it('keeps a scorer of several tests apart per test: exercises and grammar forms are not averaged together', async () => {
    const mixed = await openStore('sqlite::memory:');
    try {
      const { run } = await runSuite({
        store: mixed, suites: ['data/samples/english/exercises.jsonl', 'data/samples/irish/grammar_forms.jsonl'], models: [parseModelSpec('baseline:gold')], repeats: 1, seed: 3, params: {},
        testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel: () => createBaselineModel('gold'), prices: { source: 'test', date: '2026-12-01', models: {} },
        concurrency: () => 4, retryErrors: false,
      });
      const items = (file: string) => readFileSync(file, 'utf8').trim().split('\n').length;
      const rows = (await runResults(mixed, run.id)).filter(r => r.measure.startsWith('exact'));
      expect(rows.map(r => [r.measure, r.n])).toEqual([
        ['exact (exercises)', items('data/samples/english/exercises.jsonl')], ['exact (grammar_forms)', items('data/samples/irish/grammar_forms.jsonl')],
      ]);
    } finally {
      await mixed.close();
    }
  });
});
