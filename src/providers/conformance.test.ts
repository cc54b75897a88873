import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatModel, ChatRequest } from '../core/chat-model.js';
import { createAnthropicModel } from './anthropic/index.js';
import { retryMiddleware, wrapChatModel } from './middleware/index.js';
import { createOpenAICompatibleModel } from './openai-compatible/index.js';
import { callError } from './testing/call-error.js';
import {
  anthropicErrorBody, anthropicMessageBody, openAIChatBody, openAIErrorBody, refusedURL,
  startAnthropicServer, startOpenAICompatibleServer, type FakeServer, type FakeServerOptions,
} from './testing/fake-servers.js';

/**
 * One suite, run against every HTTP wire protocol: the same failure must map to the same
 * ProviderCallError whichever protocol saw it, because the engine's retry and storage logic
 * depends only on `kind`, `statusCode` and `isRetryable`.
 */
interface Protocol {
  name: string;
  start(options?: FakeServerOptions): Promise<FakeServer>;
  create(baseURL: string, extra?: { apiKey?: string; timeoutMs?: number }): ChatModel;
  ok(text: string): Record<string, unknown>;
  error(status: number, message: string): Record<string, unknown>;
  empty: Record<string, unknown>;
  keyEnv: string;
  basePath: string;
}

const protocols: Protocol[] = [
  {
    name: 'openai-compatible',
    start: startOpenAICompatibleServer,
    create: (baseURL, extra) => createOpenAICompatibleModel({ model: 'm', baseURL, env: {}, ...extra }),
    ok: text => openAIChatBody({ text }),
    error: (status, message) => openAIErrorBody(message, status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error'),
    empty: { ...openAIChatBody(), choices: [] },
    keyEnv: 'OPENAI_API_KEY',
    basePath: '/v1',
  },
  {
    name: 'anthropic',
    start: startAnthropicServer,
    create: (baseURL, extra) => createAnthropicModel({ model: 'claude', baseURL, env: {}, ...extra }),
    ok: text => anthropicMessageBody({ text }),
    error: (status, message) => anthropicErrorBody(status === 529 ? 'overloaded_error' : status === 429 ? 'rate_limit_error' : 'api_error', message),
    empty: { ...anthropicMessageBody(), content: [] },
    keyEnv: 'ANTHROPIC_API_KEY',
    basePath: '',
  },
];

const request: ChatRequest = { messages: [{ role: 'user', content: 'Hello' }], params: { maxTokens: 16 } };

describe.each(protocols)('$name protocol', protocol => {
  let server: FakeServer | undefined;
  afterEach(async () => { await server?.close(); server = undefined; });

  function retrying(model: ChatModel, sleep = vi.fn(async (_ms: number) => {}), maxAttempts = 5) {
    return { model: wrapChatModel(model, retryMiddleware({ maxAttempts, random: () => 0, sleep })), sleep };
  }

  it('retries a 429 after the Retry-After seconds, then succeeds', async () => {
    server = await protocol.start({ replies: [
      { status: 429, headers: { 'retry-after': '3' }, body: protocol.error(429, 'Rate limit reached') },
      { body: protocol.ok('fine') },
    ] });
    const { model, sleep } = retrying(protocol.create(server.baseURL));
    const onRetry = vi.fn();
    const result = await model.generate(request, { onRetry });
    expect(result.text).toBe('fine');
    expect(server.requests).toHaveLength(2);
    expect(sleep.mock.calls.map(c => c[0])).toEqual([3000]);
    expect(onRetry).toHaveBeenCalledOnce();
    expect(onRetry.mock.calls[0]![0]).toMatchObject({ attempt: 1, delayMs: 3000, error: { kind: 'http', statusCode: 429, retryAfterMs: 3000 } });
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const at = new Date(Date.now() + 10_000).toUTCString();
    server = await protocol.start({ replies: [
      { status: 429, headers: { 'retry-after': at }, body: protocol.error(429, 'slow down') },
      { body: protocol.ok('fine') },
    ] });
    const { model, sleep } = retrying(protocol.create(server.baseURL));
    expect((await model.generate(request)).text).toBe('fine');
    // HTTP dates have one-second resolution, and some time passes before the header is read.
    const waited = sleep.mock.calls[0]![0];
    expect(waited).toBeGreaterThan(8000);
    expect(waited).toBeLessThanOrEqual(10_000);
  });

  it('prefers retry-after-ms to retry-after', async () => {
    server = await protocol.start({ replies: [
      { status: 429, headers: { 'retry-after': '30', 'retry-after-ms': '1250' }, body: protocol.error(429, 'slow down') },
      { body: protocol.ok('fine') },
    ] });
    const { model, sleep } = retrying(protocol.create(server.baseURL));
    await model.generate(request);
    expect(sleep.mock.calls.map(c => c[0])).toEqual([1250]);
  });

  it('maps each status to retryable or not, keeping the server message', async () => {
    const statuses: Array<[number, boolean]> = [
      [400, false], [403, false], [404, false], [422, false],
      [408, true], [409, true], [425, true], [500, true], [502, true], [503, true], [504, true], [529, true],
    ];
    server = await protocol.start({ replies: statuses.map(([status]) => ({ status, body: protocol.error(status, `server says ${status}`) })) });
    const model = protocol.create(server.baseURL);
    for (const [status, retryable] of statuses) {
      const error = await callError(model.generate(request));
      expect({ status: error.statusCode, kind: error.kind, retryable: error.isRetryable }).toEqual({ status, kind: 'http', retryable });
      expect(error.message).toContain(`server says ${status}`);
      expect(error.responseBody).toContain(`server says ${status}`);
    }
  });

  it('gives up after maxAttempts on a persistent 500 and throws the last error', async () => {
    server = await protocol.start({ reply: () => ({ status: 500, body: protocol.error(500, 'boom') }) });
    const { model, sleep } = retrying(protocol.create(server.baseURL), undefined, 3);
    const error = await callError(model.generate(request));
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true });
    expect(server.requests).toHaveLength(3);
    expect(sleep).toHaveBeenCalledTimes(2);
  });

  it('does not retry a 400', async () => {
    server = await protocol.start({ reply: () => ({ status: 400, body: protocol.error(400, 'bad field') }) });
    const { model, sleep } = retrying(protocol.create(server.baseURL));
    await callError(model.generate(request));
    expect(server.requests).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('says how to set the key on a 401', async () => {
    server = await protocol.start({ replies: [
      { status: 401, body: protocol.error(401, 'invalid x-api-key') },
      { status: 401, body: protocol.error(401, 'invalid x-api-key') },
    ] });
    const withKey = await callError(protocol.create(server.baseURL, { apiKey: 'wrong' }).generate(request));
    expect(withKey).toMatchObject({ kind: 'http', statusCode: 401, isRetryable: false });
    expect(withKey.message).toContain('invalid x-api-key');
    expect(withKey.message).toContain(protocol.keyEnv);
    expect(withKey.message).toContain('`apiKey` option');
    const without = await callError(protocol.create(server.baseURL).generate(request));
    expect(without.message).toMatch(new RegExp(`No API key was sent.*${protocol.keyEnv}`));
  });

  it('times out on a server that never answers', async () => {
    server = await protocol.start({ replies: [{ hang: true }] });
    const started = Date.now();
    const error = await callError(protocol.create(server.baseURL, { timeoutMs: 150 }).generate(request));
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    expect(error.message).toMatch(/150 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('times out when the headers come but the body stalls', async () => {
    server = await protocol.start({ replies: [{ stallBody: true, body: protocol.ok('never finished') }] });
    const error = await callError(protocol.create(server.baseURL, { timeoutMs: 100 }).generate(request));
    expect(error.kind).toBe('timeout');
  });

  it('reports a body that is not JSON as malformed and retryable', async () => {
    server = await protocol.start({ replies: [{ body: '{"choices": [oops' }] });
    const error = await callError(protocol.create(server.baseURL).generate(request));
    expect(error).toMatchObject({ kind: 'malformed', isRetryable: true, statusCode: 200 });
    expect(error.responseBody).toBe('{"choices": [oops');
  });

  it('reports a 200 with nothing in it as empty and retryable', async () => {
    server = await protocol.start({ replies: [{ body: protocol.empty }] });
    const error = await callError(protocol.create(server.baseURL).generate(request));
    expect(error).toMatchObject({ kind: 'empty', isRetryable: true });
  });

  it('reports a refused connection as a retryable network error', async () => {
    const error = await callError(protocol.create(await refusedURL(protocol.basePath)).generate(request));
    expect(error).toMatchObject({ kind: 'network', isRetryable: true });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('reports a dropped socket as a retryable network error', async () => {
    server = await protocol.start({ replies: [{ drop: true }] });
    const error = await callError(protocol.create(server.baseURL).generate(request));
    expect(error).toMatchObject({ kind: 'network', isRetryable: true });
  });

  it('stops at once when the caller aborts, and the error is not retryable', async () => {
    server = await protocol.start({ reply: () => ({ hang: true }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { model, sleep } = retrying(protocol.create(server.baseURL, { timeoutMs: 10_000 }));
    const error = await callError(model.generate(request, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'aborted', isRetryable: false });
    expect(server.requests).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
    // Already aborted: no request at all.
    const again = await callError(protocol.create(server.baseURL).generate(request, { signal: controller.signal }));
    expect(again.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a retry while it waits out the backoff', async () => {
    server = await protocol.start({ reply: () => ({ status: 503, headers: { 'retry-after': '60' }, body: protocol.error(503, 'down') }) });
    const controller = new AbortController();
    const model = wrapChatModel(protocol.create(server.baseURL), retryMiddleware({ random: () => 0 }));
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await callError(model.generate(request, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.requests).toHaveLength(1);
  });
});
