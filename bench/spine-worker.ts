import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatModel } from '../src/core/index.js';
import { runSuite } from '../src/suites/run.js';
import { openStore } from '../src/store/index.js';
import { BUILT_IN_TESTS } from '../src/suites/tests/index.js';
import { builtInScorers } from '../src/scoring/builtins.js';

/**
 * Child process of spine.bench: `instant <trials>` runs that many trials against an in-process
 * instant model; `http <requests> <baseURL> <concurrency>` against a local server. Prints JSON.
 */
const [mode, countArg, baseURL, concurrencyArg] = process.argv.slice(2);
const count = Number(countArg);
const dir = mkdtempSync(join(tmpdir(), 'paideia-bench-'));
const file = join(dir, 'items.jsonl');
const lines: string[] = [];
for (let i = 0; i < count; i++) {
  lines.push(JSON.stringify({
    id: `bench-${i}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${i}`, pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' },
    accepted: [i % 3 ? `focail${i}` : `fhocail${i}`], source: { dataset: 'bench', key: String(i) }, licence: 'CC0-1.0', evidence: 'synthetic',
    visibility: 'private', contamination: 'private', human_checked: false, topic: `t${i % 7}`,
  }));
}
writeFileSync(file, lines.join('\n'));

const instant: ChatModel = {
  specVersion: 'paideia.chat-model.v1', provider: 'openai', modelId: 'instant', isBaseline: false,
  async generate(request) {
    return { text: request.hints?.gold ?? '', warnings: [], usage: { inputTokens: 20, outputTokens: 2 } };
  },
};

const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
const started = performance.now();
let callsStarted = 0;
let createModel: (spec: { alias: string }) => ChatModel = () => instant;
if (mode === 'http') {
  const { createOpenAICompatibleModel } = await import('../src/providers/index.js');
  const remote = createOpenAICompatibleModel({ model: 'slow', baseURL: baseURL!, apiKey: 'bench' });
  createModel = () => remote;
}
const { summary } = await runSuite({
  store, suites: [file], models: [{ alias: 'm', provider: 'openai', model: 'instant', spec: 'openai:instant' }],
  repeats: 1, seed: 1, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel,
  prices: { source: 'bench', date: '2026-11-29', models: {} }, useCache: false,
  concurrency: () => Number(concurrencyArg ?? 8),
  onEvent: e => {
    if (e.type === 'start') callsStarted = performance.now();
  },
});
const ended = performance.now();
const seconds = (ended - started) / 1000;
// The calling phase alone: from the first trial started to the last one stored.
const callSeconds = (ended - callsStarted) / 1000;
await store.close();
process.stdout.write(JSON.stringify({ seconds, callSeconds, done: summary.done, failed: summary.failed, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
