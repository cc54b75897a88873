import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ChatModel } from '../core/index.js';
import { builtInScorers } from '../scoring/builtins.js';
import { openStore } from '../store/index.js';
import { runSuite } from './run.js';
import { BUILT_IN_TESTS } from './tests/index.js';

/** Answers at once, in process: trials that never wait on I/O, as with baselines, replays and cache hits. */
const instant: ChatModel = {
  specVersion: 'paideia.chat-model.v1', provider: 'openai', modelId: 'instant', isBaseline: false,
  async generate(request) {
    return { text: request.hints?.gold ?? '', warnings: [], usage: { inputTokens: 20, outputTokens: 2 } };
  },
};

it('lets the event loop turn while in-process answers keep coming, so a stop from a timer (as Ctrl-C is) lands mid-run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paideia-loop-'));
  const file = join(dir, 'items.jsonl');
  const n = 6000;
  writeFileSync(file, Array.from({ length: n }, (_, i) => JSON.stringify({
    id: `noun-${i}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${i}`, pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' },
    accepted: [`focail${i}`], source: { dataset: 'test', key: String(i) }, licence: 'CC0-1.0', evidence: 'synthetic', visibility: 'private',
    contamination: 'private', human_checked: false,
  })).join('\n'));
  const store = await openStore(`sqlite:${join(dir, 'run.db')}`);
  const stop = new AbortController();
  let armed = false;
  const { summary } = await runSuite({
    store, suites: [file], models: [{ alias: 'm', provider: 'openai', model: 'instant', spec: 'openai:instant' }], repeats: 1, seed: 1, params: {},
    testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel: () => instant, prices: { source: 'test', date: '2026-12-02', models: {} },
    useCache: false, concurrency: () => 8, stopSignal: stop.signal,
    // Armed once the first trial is stored (armed at the start, a slow first read of items let it
    // fire before any trial ran): a loop held until the last trial is done would fire it only then.
    onEvent: e => {
      if (e.type !== 'trial' || armed) return;
      armed = true;
      setTimeout(() => stop.abort(), 5);
    },
  });
  expect(summary.stoppedBy).toBe('interrupt');
  expect(summary.done).toBeGreaterThan(0);
  expect(summary.done).toBeLessThan(n);
  expect(summary.pending).toBe(n - summary.done);
  await store.close();
});
