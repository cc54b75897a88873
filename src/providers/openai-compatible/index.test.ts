import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat-model.js';
import { ConfigError, ProviderCallError } from '../../core/errors.js';
import { callError } from '../testing/call-error.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../testing/fake-servers.js';
import { createOpenAICompatibleModel } from './index.js';
import { imagePart } from '../shared/images.js';

let server: FakeServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

const request: ChatRequest = {
  messages: [
    { role: 'system', content: 'You are a tutor.' },
    { role: 'user', content: 'Correct: "I has a cat."' },
  ],
  params: { temperature: 0.2, maxTokens: 64, topP: 0.9, seed: 7, stop: ['\n\n'], providerOptions: { openai: { user: 'paideia', logit_bias: { '50256': -100 } } } },
  hints: { copy: 'never sent' },
  context: { trialId: 't1' },
};

describe('createOpenAICompatibleModel', () => {
  it('sends exactly the mapped body with the key, and reads text, usage, finish reason and model', async () => {
    server = await startOpenAICompatibleServer({
      replies: [{ body: openAIChatBody({ text: 'I have a cat.', usage: { prompt_tokens: 21, completion_tokens: 5 }, model: 'gpt-4.1-2025-04-14' }) }],
    });
    const model = createOpenAICompatibleModel({ model: 'gpt-4.1', baseURL: server.baseURL, apiKey: 'sk-test', headers: { 'x-title': 'paideia' }, env: {} });
    const result = await model.generate(request);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toEqual({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'You are a tutor.' },
        { role: 'user', content: 'Correct: "I has a cat."' },
      ],
      temperature: 0.2,
      max_tokens: 64,
      top_p: 0.9,
      seed: 7,
      stop: ['\n\n'],
      user: 'paideia',
      logit_bias: { '50256': -100 },
    });
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.headers['x-title']).toBe('paideia');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(result).toMatchObject({
      text: 'I have a cat.',
      usage: { inputTokens: 21, outputTokens: 5 },
      finishReason: 'stop',
      responseModel: 'gpt-4.1-2025-04-14',
      warnings: [],
    });
    expect(result.raw).toMatchObject({ id: 'chatcmpl-fake' });
    expect(model).toMatchObject({ provider: 'openai', modelId: 'gpt-4.1', isBaseline: false });
  });

  it('lets providerOptions.openai.max_completion_tokens replace maxTokens, with a warning', async () => {
    server = await startOpenAICompatibleServer();
    const model = createOpenAICompatibleModel({ model: 'o4-mini', baseURL: server.baseURL, env: {} });
    const result = await model.generate({
      messages: [{ role: 'user', content: 'hi' }],
      params: { maxTokens: 100, providerOptions: { openai: { max_completion_tokens: 2000, reasoning_effort: 'low' } } },
    });
    expect(server.requests[0]!.body).toEqual({
      model: 'o4-mini', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 2000, reasoning_effort: 'low',
    });
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'other', setting: 'maxTokens' })]);
    expect(result.text).toBe('echo: hi');
  });

  it('rejects a mistyped known provider option as a ConfigError naming the field, before any call', async () => {
    server = await startOpenAICompatibleServer();
    const model = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, env: {} });
    const call = model.generate({ messages: [{ role: 'user', content: 'x' }], params: { providerOptions: { openai: { max_completion_tokens: 'lots' } } } });
    await expect(call).rejects.toThrow(ConfigError);
    await expect(call).rejects.toThrow(/providerOptions\.openai\.max_completion_tokens/);
    expect(server.requests).toHaveLength(0);
  });

  it('sends no Authorization header without a key, and takes base URL and key from the environment', async () => {
    server = await startOpenAICompatibleServer();
    await createOpenAICompatibleModel({ model: 'llama', env: { OPENAI_BASE_URL: server.baseURL + '/' } })
      .generate({ messages: [{ role: 'user', content: 'a' }], params: {} });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');

    await createOpenAICompatibleModel({ model: 'llama', env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-env' } })
      .generate({ messages: [{ role: 'user', content: 'a' }], params: {} });
    expect(server.requests[1]!.headers.authorization).toBe('Bearer sk-env');
  });

  it('maps tools and a forced tool choice, and reads tool calls', async () => {
    server = await startOpenAICompatibleServer({
      replies: [{ body: openAIChatBody({ text: null, toolCalls: [{ name: 'score', arguments: '{"score":4,"why":"clear"}' }] }) }],
    });
    const model = createOpenAICompatibleModel({ model: 'gpt-4.1-mini', baseURL: server.baseURL, env: {} });
    const parameters = { type: 'object', properties: { score: { type: 'integer' }, why: { type: 'string' } }, required: ['score'] };
    const result = await model.generate({
      messages: [{ role: 'user', content: 'Grade this.' }],
      params: {},
      tools: [{ name: 'score', description: 'Record a rubric score', parameters }],
      toolChoice: 'score',
    });
    expect(server.requests[0]!.body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Grade this.' }],
      tools: [{ type: 'function', function: { name: 'score', description: 'Record a rubric score', parameters } }],
      tool_choice: { type: 'function', function: { name: 'score' } },
    });
    expect(result.text).toBe('');
    expect(result.toolCalls).toEqual([{ name: 'score', arguments: '{"score":4,"why":"clear"}' }]);
    expect(result.finishReason).toBe('tool_calls');
  });

  it('reads content given as a list of text parts (some compatible servers do this)', async () => {
    const body = openAIChatBody();
    (body.choices as Array<{ message: { content: unknown } }>)[0]!.message.content = [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }];
    server = await startOpenAICompatibleServer({ replies: [{ body }] });
    const result = await createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, env: {} })
      .generate({ messages: [{ role: 'user', content: 'x' }], params: {} });
    expect(result.text).toBe('ab');
  });

  it('treats a 200 whose choice has no text and no tool calls as an empty, retryable failed call (as Anthropic\'s empty reply is)', async () => {
    const withoutContent = openAIChatBody();
    delete (withoutContent.choices as Array<{ message: Record<string, unknown> }>)[0]!.message.content;
    const emptyParts = openAIChatBody();
    (emptyParts.choices as Array<{ message: { content: unknown } }>)[0]!.message.content = [];
    server = await startOpenAICompatibleServer({
      replies: [
        { body: openAIChatBody({ text: null }) },
        { body: openAIChatBody({ text: '', finishReason: 'content_filter' }) },
        { body: withoutContent },
        { body: emptyParts },
        { body: { ...openAIChatBody(), choices: [] } },
      ],
    });
    const model = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, env: {} });
    const req: ChatRequest = { messages: [{ role: 'user', content: 'x' }], params: {} };
    const errors = [];
    for (let i = 0; i < 5; i++) errors.push(await callError(model.generate(req)));
    for (const e of errors) {
      expect(e).toBeInstanceOf(ProviderCallError);
      expect(e).toMatchObject({ kind: 'empty', isRetryable: true });
    }
    expect(errors[0]!.message).toMatch(/answered with no content: the first choice has no text and no tool calls \(finish_reason "stop"\)/);
    expect(errors[1]!.message).toMatch(/finish_reason "content_filter"/);
    expect(errors[0]!.responseBody).toContain('"content":null');
    expect(errors[4]!.message).toMatch(/the `choices` list is empty or missing/);
    expect(server.requests).toHaveLength(5);
  });

  it('treats an error object inside a 200 body (OpenRouter) as a failed call', async () => {
    server = await startOpenAICompatibleServer({
      replies: [
        { body: { error: { code: 502, message: 'Upstream provider returned an error' } } },
        { body: { error: { code: 400, message: 'Invalid model' } } },
      ],
    });
    const model = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, env: {} });
    const req: ChatRequest = { messages: [{ role: 'user', content: 'x' }], params: {} };
    const first = await callError(model.generate(req));
    expect(first).toBeInstanceOf(ProviderCallError);
    expect(first).toMatchObject({ kind: 'http', statusCode: 502, isRetryable: true });
    expect(first.message).toMatch(/Upstream provider returned an error/);
    const second = await callError(model.generate(req));
    expect(second).toMatchObject({ kind: 'http', statusCode: 400, isRetryable: false });
  });

  it('sends images as image_url parts with data URLs before the text, only to a model declared to accept them', async () => {
    server = await startOpenAICompatibleServer();
    const png = imagePart(new Uint8Array([1, 2, 3, 250]), 'image/png');
    const jpeg = imagePart(new Uint8Array([255, 216, 255]), 'image/jpeg');
    const req: ChatRequest = {
      messages: [
        { role: 'system', content: 'You are a learner.' },
        { role: 'user', content: 'Slides 1 and 2.', images: [png, jpeg] },
        { role: 'user', content: '', images: [png] },
      ],
      params: {},
    };
    const model = createOpenAICompatibleModel({ model: 'vis', baseURL: server.baseURL, env: {}, acceptsImages: true });
    expect(model.acceptsImages).toBe(true);
    await model.generate(req);
    expect(server.requests[0]!.body).toEqual({
      model: 'vis',
      messages: [
        { role: 'system', content: 'You are a learner.' },
        { role: 'user', content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID+g==' } },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } },
          { type: 'text', text: 'Slides 1 and 2.' },
        ] },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AQID+g==' } }] },
      ],
    });
    const blind = createOpenAICompatibleModel({ model: 'text-only', baseURL: server.baseURL, env: {} });
    expect(blind.acceptsImages).toBe(false);
    await expect(blind.generate(req)).rejects.toThrow(ConfigError);
    await expect(blind.generate(req)).rejects.toThrow(/model openai:text-only is not declared to accept images/);
    expect(server.requests).toHaveLength(1);
  });
});
