import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { parseModelSpec } from '../core/model-spec.js';
import type { PriceTable } from '../core/prices.js';
import { costOf, defaultPriceFile, estimateCost, loadPriceTable, priceFor, unpricedReason } from './pricing.js';

const table: PriceTable = {
  source: 'test',
  date: '2025-01-01',
  models: {
    'openai:gpt-4.1': { input: 2, output: 8 },
    'llama-3.1-70b': { input: 0.5, output: 0.7 },
    'baseline:*': { input: 0, output: 0 },
  },
};

function tempFile(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'paideia-prices-')), 'prices.json');
  writeFileSync(file, content);
  return file;
}

describe('price table', () => {
  it('ships a dated table that prices common models and makes baselines free', () => {
    const shipped = loadPriceTable();
    expect(shipped.source).toBe('built-in');
    expect(shipped.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(defaultPriceFile()).toMatch(/data[/\\]prices\.json$/);
    for (const spec of ['openai:gpt-4.1', 'openai:gpt-4.1-mini', 'openai:gpt-4o', 'openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-20250514', 'anthropic:claude-3-5-haiku-20241022']) {
      const price = priceFor(shipped, spec);
      expect(price, spec).toBeDefined();
      expect(price!.output).toBeGreaterThan(price!.input);
    }
    expect(priceFor(shipped, parseModelSpec('baseline:gold'))).toEqual({ input: 0, output: 0 });
    expect(priceFor(shipped, 'replay:run-1')).toEqual({ input: 0, output: 0 });
  });

  it('matches provider:model, then the bare model, then provider:*, else unknown', () => {
    expect(priceFor(table, parseModelSpec('openai:gpt-4.1'))).toEqual({ input: 2, output: 8 });
    expect(priceFor(table, 'openai:llama-3.1-70b')).toEqual({ input: 0.5, output: 0.7 });
    expect(priceFor(table, 'ollama:llama-3.1-70b')).toEqual({ input: 0.5, output: 0.7 });
    expect(priceFor(table, 'baseline:random')).toEqual({ input: 0, output: 0 });
    expect(priceFor(table, 'anthropic:gpt-4.1')).toBeUndefined();
    expect(priceFor(table, 'openai:gpt-4.1-2025-04-14')).toBeUndefined();
  });

  it('costs usage per million tokens', () => {
    expect(costOf({ input: 2, output: 8 }, { inputTokens: 1_000_000, outputTokens: 500_000 })).toBeCloseTo(6, 12);
    expect(costOf({ input: 2, output: 8 }, { inputTokens: 1000, outputTokens: 0 })).toBeCloseTo(0.002, 12);
  });

  it('estimates a request from ceil(chars/4) input and maxTokens (or 512) output', () => {
    const price = { input: 1_000_000, output: 2_000_000 }; // $1 / $2 per token, so dollars read as tokens
    const messages = [{ role: 'system' as const, content: 'abcde' }, { role: 'user' as const, content: 'fgh' }]; // 8 chars -> 2 tokens
    expect(estimateCost(price, { messages, params: { maxTokens: 10 } })).toBe(2 + 20);
    expect(estimateCost(price, { messages: [{ role: 'user', content: 'x' }], params: {} })).toBe(1 + 1024);
  });

  it('reports a bad file as a ConfigError naming the file and every bad field', () => {
    const bad = tempFile(JSON.stringify({ date: 'last week', models: { 'openai:x': { input: -1, output: 'cheap' } } }));
    let error: unknown;
    try { loadPriceTable(bad); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues;
    expect(issues.map(i => i.field).sort()).toEqual(['date', 'models.openai:x.input', 'models.openai:x.output']);
    expect(issues.every(i => i.file === bad)).toBe(true);
    expect((error as Error).message).toContain(bad);
    expect(() => loadPriceTable(tempFile('{ not json'))).toThrow(/not valid JSON/);
    expect(() => loadPriceTable(join(tmpdir(), 'no-such-dir', 'prices.json'))).toThrow(ConfigError);
  });

  it('loads a user file and records it as the source', () => {
    const file = tempFile(JSON.stringify({ date: '2025-06-01', models: { 'openai:m': { input: 1, output: 2 } } }));
    expect(loadPriceTable(file)).toEqual({ source: file, date: '2025-06-01', models: { 'openai:m': { input: 1, output: 2 } } });
  });
});

describe('prices where the model is served', () => {
  const shipped = loadPriceTable();

  it('the built-in list prices apply at the vendor endpoint, not behind another base URL', () => {
    expect(priceFor(shipped, 'openai:gpt-4.1-mini', { endpoint: 'https://api.openai.com/v1' })).toEqual(priceFor(shipped, 'openai:gpt-4.1-mini'));
    expect(priceFor(shipped, 'anthropic:claude-sonnet-4', { endpoint: 'https://api.anthropic.com' })).toBeDefined();
    expect(priceFor(shipped, 'openai:gpt-4.1-mini', { endpoint: 'http://127.0.0.1:8080/v1' })).toBeUndefined();
    expect(priceFor(shipped, 'anthropic:claude-sonnet-4', { endpoint: 'https://openrouter.ai/api/v1' })).toBeUndefined();
    // local Ollama makes no paid call wherever it runs; no endpoint given prices by name, as before
    expect(priceFor(shipped, 'ollama:llama3.1:8b', { endpoint: 'http://10.0.0.5:11434/v1' })).toEqual({ input: 0, output: 0 });
    expect(priceFor(shipped, 'openai:gpt-4.1-mini')).toBeDefined();
  });

  it('a table the user gave prices what it names at any endpoint', () => {
    expect(priceFor(table, 'openai:gpt-4.1', { endpoint: 'http://127.0.0.1:8080/v1' })).toEqual({ input: 2, output: 8 });
  });

  it('says why a model has no price', () => {
    expect(unpricedReason(shipped, 'openai:gpt-4.1-mini', { endpoint: 'http://127.0.0.1:8080/v1' }))
      .toBe("openai:gpt-4.1-mini is served from http://127.0.0.1:8080/v1, not api.openai.com: the vendor's list price does not apply there; give --prices FILE naming openai:gpt-4.1-mini (OpenRouter's models list JSON is read as is)");
    expect(unpricedReason(shipped, 'openai:my-finetune')).toBe('no price for openai:my-finetune in the built-in price table; give --prices FILE naming it');
    expect(unpricedReason(shipped, 'openai:gpt-4.1-mini')).toBeUndefined();
  });
});

describe("OpenRouter's models list as a price table", () => {
  const file = new URL('./__fixtures__/openrouter-models.json', import.meta.url).pathname;

  it('reads USD per token strings as USD per million, keyed by the OpenRouter id; a negative (router) price stays unknown', () => {
    const t = loadPriceTable(file);
    expect(t.source).toBe(file);
    expect(t.date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(t.models).toEqual({
      'anthropic/claude-sonnet-4': { input: 3, output: 15 },
      'openai/gpt-4.1-mini': { input: 0.4, output: 1.6 },
      'meta-llama/llama-3.3-70b-instruct:free': { input: 0, output: 0 },
    });
    // a spec at OpenRouter's endpoint carries the id as its model
    expect(priceFor(t, 'openai:anthropic/claude-sonnet-4', { endpoint: 'https://openrouter.ai/api/v1' })).toEqual({ input: 3, output: 15 });
    expect(priceFor(t, 'openai:openrouter/auto')).toBeUndefined();
  });

  it('names the entry and field of a price that is not a number', () => {
    const bad = tempFile(JSON.stringify({ data: [{ id: 'a/b', pricing: { prompt: '0.1', completion: '0.2' } }, { id: 'c/d', pricing: { prompt: 'free', completion: '0' } }, { id: 'e/f' }] }));
    let error: unknown;
    try { loadPriceTable(bad); } catch (e) { error = e; }
    expect((error as ConfigError).issues.map(i => i.field)).toEqual(['data.2.pricing']);
    const worse = tempFile(JSON.stringify({ data: [{ id: 'c/d', pricing: { prompt: 'free', completion: '' } }] }));
    try { loadPriceTable(worse); } catch (e) { error = e; }
    expect((error as ConfigError).issues.map(i => [i.file, i.field])).toEqual([[worse, 'data.0.pricing.prompt'], [worse, 'data.0.pricing.completion']]);
    expect((error as Error).message).toContain('c/d: expected USD per token as a decimal string, got "free"');
  });
});
