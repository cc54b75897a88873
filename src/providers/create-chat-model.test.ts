import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { parseModelSpec } from '../core/model-spec.js';
import { createChatModel } from './create-chat-model.js';
import { startAnthropicServer, startOpenAICompatibleServer, type FakeServer } from './testing/fake-servers.js';

const servers: FakeServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map(s => s.close())); });
const hello = { messages: [{ role: 'user' as const, content: 'hello' }], params: { maxTokens: 8 } };

describe('createChatModel', () => {
  it('sends openai: specs to --base-url over OPENAI_BASE_URL, with the key', async () => {
    const flag = await startOpenAICompatibleServer();
    const env = await startOpenAICompatibleServer();
    servers.push(flag, env);
    const model = createChatModel(parseModelSpec('openai:gpt-4.1'), {
      baseURL: flag.baseURL, apiKey: 'sk-flag', env: { OPENAI_BASE_URL: env.baseURL, OPENAI_API_KEY: 'sk-env' },
    });
    expect((await model.generate(hello)).text).toBe('echo: hello');
    expect(flag.requests[0]!.headers.authorization).toBe('Bearer sk-flag');
    expect(env.requests).toHaveLength(0);
    expect([model.provider, model.modelId]).toEqual(['openai', 'gpt-4.1']);
  });

  it('sends ollama: specs to OLLAMA_BASE_URL without the OpenAI key, reading providerOptions.ollama', async () => {
    const ollama = await startOpenAICompatibleServer();
    servers.push(ollama);
    const model = createChatModel(parseModelSpec('ollama:llama3.1:8b'), {
      baseURL: 'http://127.0.0.1:9/never', env: { OLLAMA_BASE_URL: ollama.baseURL, OPENAI_API_KEY: 'sk-secret' },
    });
    await model.generate({ ...hello, params: { providerOptions: { ollama: { num_ctx: 4096 }, openai: { user: 'x' } } } });
    const sent = ollama.requests[0]!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ model: 'llama3.1:8b', messages: hello.messages, num_ctx: 4096 });
    expect(model.provider).toBe('ollama');
  });

  it('builds anthropic: from ANTHROPIC_* variables', async () => {
    const server = await startAnthropicServer();
    servers.push(server);
    const model = createChatModel(parseModelSpec('judge=anthropic:claude-sonnet-4-20250514'), {
      env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'sk-ant' },
    });
    expect((await model.generate(hello)).text).toBe('echo: hello');
    expect(server.requests[0]!.headers['x-api-key']).toBe('sk-ant');
  });

  it('builds baselines, seeding random from the options', async () => {
    const ask = { ...hello, params: { seed: 1 }, hints: { gold: 'G', copy: 'C', options: Array.from({ length: 30 }, (_, i) => `o${i}`) } };
    expect((await createChatModel(parseModelSpec('baseline:gold')).generate(ask)).text).toBe('G');
    const picks = await Promise.all([1, 2, 3, 4, 5].map(seed => createChatModel(parseModelSpec('baseline:random'), { seed }).generate(ask).then(r => r.text)));
    expect(new Set(picks).size).toBeGreaterThan(1);
    const script = join(mkdtempSync(join(tmpdir(), 'paideia-ccm-')), 's.json');
    writeFileSync(script, '["scripted"]');
    const scripted = createChatModel(parseModelSpec('baseline:script'), { scriptFile: script });
    expect((await scripted.generate(hello)).text).toBe('scripted');
    expect(scripted.isBaseline).toBe(true);
  });

  it('builds replay: from the injected lookup', async () => {
    const model = createChatModel(parseModelSpec('replay:run-1'), { replayLookup: async q => ({ text: `stored ${q.itemId}`, warnings: [] }) });
    expect((await model.generate({ ...hello, context: { itemId: 'i9' } })).text).toBe('stored i9');
  });

  it('reports missing inputs and unknown baselines as ConfigErrors on the model field', () => {
    expect(() => createChatModel(parseModelSpec('baseline:script'))).toThrow(/--script/);
    expect(() => createChatModel(parseModelSpec('replay:run-1'))).toThrow(/replayLookup/);
    expect(() => createChatModel(parseModelSpec('baseline:oracle'))).toThrow(ConfigError);
    expect(() => createChatModel(parseModelSpec('baseline:oracle'))).toThrow(/field "model".*known: copy, gold, random, script/);
  });
});
