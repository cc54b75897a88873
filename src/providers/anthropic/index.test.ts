import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat-model.js';
import { callError } from '../testing/call-error.js';
import { anthropicErrorBody, anthropicMessageBody, startAnthropicServer, type FakeServer } from '../testing/fake-servers.js';
import { createAnthropicModel } from './index.js';
import { ConfigError } from '../../core/errors.js';
import { imagePart } from '../shared/images.js';

let server: FakeServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

describe('createAnthropicModel', () => {
  it('moves system messages to `system`, sends version and key headers, and reads the reply', async () => {
    server = await startAnthropicServer({
      replies: [{ body: anthropicMessageBody({ text: 'Bonjour.', usage: { input_tokens: 30, output_tokens: 4 }, model: 'claude-sonnet-4-20250514' }) }],
    });
    const model = createAnthropicModel({ model: 'claude-sonnet-4-20250514', baseURL: server.baseURL, apiKey: 'sk-ant-test', env: {} });
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: 'You teach French.' },
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello.' },
        { role: 'assistant', content: 'Salut.' },
        { role: 'user', content: 'More formal.' },
      ],
      params: { temperature: 0, maxTokens: 200, topP: 0.5, stop: ['END'], providerOptions: { anthropic: { top_k: 5, metadata: { user_id: 'u1' } }, openai: { ignored: true } } },
    };
    const result = await model.generate(request);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 200,
      system: 'You teach French.\n\nBe brief.',
      messages: [
        { role: 'user', content: 'Say hello.' },
        { role: 'assistant', content: 'Salut.' },
        { role: 'user', content: 'More formal.' },
      ],
      temperature: 0,
      top_p: 0.5,
      stop_sequences: ['END'],
      top_k: 5,
      metadata: { user_id: 'u1' },
    });
    expect(result).toMatchObject({
      text: 'Bonjour.', usage: { inputTokens: 30, outputTokens: 4 }, finishReason: 'end_turn', responseModel: 'claude-sonnet-4-20250514', warnings: [],
    });
    expect(model).toMatchObject({ provider: 'anthropic', modelId: 'claude-sonnet-4-20250514', isBaseline: false });
  });

  it('defaults max_tokens to 1024 with a warning, and warns that seed is unsupported instead of dropping it silently', async () => {
    server = await startAnthropicServer();
    const model = createAnthropicModel({ model: 'claude-3-5-haiku-20241022', baseURL: server.baseURL, env: { ANTHROPIC_API_KEY: 'from-env' } });
    const result = await model.generate({ messages: [{ role: 'user', content: 'hi' }], params: { seed: 42 } });
    expect(server.requests[0]!.body).toEqual({ model: 'claude-3-5-haiku-20241022', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests[0]!.headers['x-api-key']).toBe('from-env');
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: 'other', setting: 'maxTokens' }),
      expect.objectContaining({ type: 'unsupported-setting', setting: 'seed' }),
    ]);
    expect(result.text).toBe('echo: hi');
  });

  it('maps tools to input_schema and a forced choice to {type: tool}, and reads tool_use blocks', async () => {
    server = await startAnthropicServer({
      replies: [{ body: anthropicMessageBody({ text: 'Scoring now.', toolUses: [{ name: 'score', input: { score: 3, why: 'ok' } }] }) }],
    });
    const parameters = { type: 'object', properties: { score: { type: 'integer' } } };
    const result = await createAnthropicModel({ model: 'c', baseURL: server.baseURL, env: {} }).generate({
      messages: [{ role: 'user', content: 'Grade.' }],
      params: { maxTokens: 50 },
      tools: [{ name: 'score', description: 'Record a score', parameters }, { name: 'skip', parameters: { type: 'object' } }],
      toolChoice: 'score',
    });
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body.tools).toEqual([
      { name: 'score', description: 'Record a score', input_schema: parameters },
      { name: 'skip', input_schema: { type: 'object' } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'score' });
    expect(result.text).toBe('Scoring now.');
    expect(result.toolCalls).toEqual([{ name: 'score', arguments: '{"score":3,"why":"ok"}' }]);
    expect(result.finishReason).toBe('tool_use');
  });

  it('reads the overloaded_error message of a 529 and marks it retryable', async () => {
    server = await startAnthropicServer({ replies: [{ status: 529, body: anthropicErrorBody('overloaded_error', 'Overloaded') }] });
    const error = await callError(createAnthropicModel({ model: 'c', baseURL: server.baseURL, env: {} }).generate({ messages: [{ role: 'user', content: 'x' }], params: {} }));
    expect(error).toMatchObject({ kind: 'http', statusCode: 529, isRetryable: true });
    expect(error.message).toMatch(/HTTP 529: Overloaded/);
  });

  it('uses ANTHROPIC_BASE_URL when no base URL is given', async () => {
    server = await startAnthropicServer();
    await createAnthropicModel({ model: 'c', env: { ANTHROPIC_BASE_URL: server.baseURL + '/' } }).generate({ messages: [{ role: 'user', content: 'x' }], params: {} });
    expect(server.requests[0]!.path).toBe('/v1/messages');
  });

  it('sends images as base64 image blocks before the text block, only to a model declared to accept them', async () => {
    server = await startAnthropicServer();
    const png = imagePart(new Uint8Array([1, 2, 3, 250]), 'image/png');
    const webp = imagePart(new Uint8Array([82, 73, 70, 70]), 'image/webp');
    const req: ChatRequest = {
      messages: [
        { role: 'system', content: 'You are a learner.' },
        { role: 'user', content: 'Slides 1 and 2.', images: [png, webp] },
        { role: 'assistant', content: 'Read.' },
        { role: 'user', content: '', images: [png] },
      ],
      params: { maxTokens: 50 },
    };
    const model = createAnthropicModel({ model: 'claude-vis', baseURL: server.baseURL, env: {}, acceptsImages: true });
    expect(model.acceptsImages).toBe(true);
    await model.generate(req);
    expect(server.requests[0]!.body).toEqual({
      model: 'claude-vis',
      max_tokens: 50,
      system: 'You are a learner.',
      messages: [
        { role: 'user', content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQID+g==' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
          { type: 'text', text: 'Slides 1 and 2.' },
        ] },
        { role: 'assistant', content: 'Read.' },
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQID+g==' } }] },
      ],
    });
    const blind = createAnthropicModel({ model: 'claude-text', baseURL: server.baseURL, env: {} });
    await expect(blind.generate(req)).rejects.toThrow(ConfigError);
    await expect(blind.generate(req)).rejects.toThrow(/model anthropic:claude-text is not declared to accept images/);
    expect(server.requests).toHaveLength(1);
  });
});
