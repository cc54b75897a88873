import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ModelSpec } from '../core/index.js';
import { createOpenAICompatibleModel } from '../providers/index.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { builtInScorers } from '../scoring/builtins.js';
import { openStore } from '../store/index.js';
import { runSuite } from './run.js';
import { BUILT_IN_TESTS } from './tests/index.js';

const servers: FakeServer[] = [];
afterAll(async () => Promise.all(servers.map(s => s.close())));

const items = 'data/samples/irish/grammar_forms.jsonl';
const count = readFileSync(items, 'utf8').trim().split('\n').length;

it('runs one model under two aliases at two endpoints as two models: every trial of each is called at its own endpoint and stored apart', async () => {
  // One model name served twice (say by vLLM and llama.cpp): the same spec, so trial ids that
  // hashed only the spec made the two aliases one trial each, stored under one of them.
  const [a, b] = await Promise.all(['A', 'B'].map(text => startOpenAICompatibleServer({ reply: () => ({ body: openAIChatBody({ text }) }) })));
  servers.push(a!, b!);
  const models: ModelSpec[] = [
    { alias: 'x', provider: 'openai', model: 'llama', spec: 'openai:llama' },
    { alias: 'y', provider: 'openai', model: 'llama', spec: 'openai:llama' },
  ];
  const at = { x: a!.baseURL, y: b!.baseURL };
  const store = await openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-shared-spec-')), 'r.db')}`);
  const run = () => runSuite({
    store, suites: [items], models, repeats: 2, seed: 1, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(),
    createModel: m => createOpenAICompatibleModel({ model: m.model, baseURL: at[m.alias as 'x' | 'y'], apiKey: 'k' }),
    prices: { source: 'test', date: '2026-12-05', models: {} }, concurrency: () => 4,
  });
  const { summary, run: record } = await run();
  expect(summary).toMatchObject({ total: 2 * 2 * count, done: 2 * 2 * count, failed: 0, pending: 0 });
  expect([a!.requests.length, b!.requests.length]).toEqual([2 * count, 2 * count]);
  const trials = await store.listTrials(record.id);
  expect(new Set(trials.map(t => t.id)).size).toBe(trials.length);
  const calls = await store.listCalls(record.id);
  const aliasOf = new Map(trials.map(t => [t.id, t.modelAlias]));
  // Each alias's trials hold the answers of its own server.
  for (const c of calls) expect(c.result?.text).toBe(aliasOf.get(c.trialId) === 'x' ? 'A' : 'B');
  // Run again: nothing left to call.
  const again = await run();
  expect(again.summary.done).toBe(2 * 2 * count);
  expect(a!.requests.length + b!.requests.length).toBe(4 * count);
  await store.close();
});
