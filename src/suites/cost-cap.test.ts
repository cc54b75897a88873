import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseModelSpec, type ChatModel, type ChatRequest } from '../core/index.js';
import { builtInScorers } from '../scoring/builtins.js';
import { openStore } from '../store/index.js';
import { DEFAULT_MAX_TOKENS, runSuite } from './run.js';
import { BUILT_IN_TESTS } from './tests/index.js';

const samples = fileURLToPath(new URL('../../data/samples/irish/grammar_forms.jsonl', import.meta.url));

/** A model that bills 4,000 completion tokens for every answer, as a verbose server would. */
function verbose(): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    specVersion: 'paideia.chat-model.v1', provider: 'openai', modelId: 'verbose', isBaseline: false, requests,
    async generate(request) {
      requests.push(request);
      await new Promise(resolve => setTimeout(resolve, 5));
      return { text: 'x', warnings: [], usage: { inputTokens: 50, outputTokens: 4000 } };
    },
  };
}

describe('the cost cap is hard', () => {
  it('sends max_tokens on every request and reserves its full price, so a server billing 4,000 tokens cannot take the spend past the cap', async () => {
    const store = await openStore('sqlite::memory:');
    const model = verbose();
    // $10 per million output tokens: an answer costs $0.0400005, its worst case (4,096 tokens) about $0.041.
    const prices = { source: 'test', date: '2026-12-01', models: { 'openai:verbose': { input: 0.01, output: 10 } } };
    const cap = 0.2;
    const { summary } = await runSuite({
      store, suites: [samples], models: [parseModelSpec('openai:verbose')], repeats: 3, seed: 1, params: {},
      testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel: () => model, prices, costCapUsd: cap,
      concurrency: () => 4,
    });
    expect(summary.stoppedBy).toBe('cost-cap');
    expect(model.requests.every(r => r.params.maxTokens === DEFAULT_MAX_TOKENS)).toBe(true);
    // With a 512-token estimate per call, four workers took this cap to several times its size.
    expect(summary.spentUsd).toBeLessThanOrEqual(cap);
    expect(await store.spentUsd((await store.listRuns())[0]!.id)).toBeLessThanOrEqual(cap);
    expect(model.requests.length).toBeGreaterThanOrEqual(4);
  });
});
