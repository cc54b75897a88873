import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../anthropic/index.js';
import { createOpenAICompatibleModel } from '../openai-compatible/index.js';
import { callError } from '../testing/call-error.js';
import { startAnthropicServer, startOpenAICompatibleServer, type FakeServer } from '../testing/fake-servers.js';
import { redactSecrets } from './post-json.js';

const KEY = 'sk-ECHOEDKEY4242-abcdef';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('credentials never reach an error message', () => {
  it('redacts a key the server echoes back (OpenAI-compatible, 401)', async () => {
    server = await startOpenAICompatibleServer({ replies: [{ status: 401, body: { error: { message: `Incorrect API key provided: Bearer ${KEY}` } } }] });
    const model = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL, apiKey: KEY });
    const e = await callError(model.generate({ messages: [{ role: 'user', content: 'x' }], params: {} }));
    expect(e.message).not.toContain(KEY);
    expect(e.responseBody ?? '').not.toContain(KEY);
    expect(e.message).toContain('[redacted]');
  });

  it('redacts an Anthropic x-api-key echoed in a 400 body', async () => {
    server = await startAnthropicServer({ replies: [{ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: `bad key ${KEY}` } } }] });
    const model = createAnthropicModel({ model: 'claude-x', baseURL: server.origin, apiKey: KEY });
    const e = await callError(model.generate({ messages: [{ role: 'user', content: 'x' }], params: { maxTokens: 5 } }));
    expect(`${e.message} ${e.responseBody ?? ''}`).not.toContain(KEY);
  });

  it('leaves text alone when no credential was sent, and ignores short tokens', () => {
    expect(redactSecrets('nothing secret here', {})).toBe('nothing secret here');
    expect(redactSecrets('the word abc', { authorization: 'Bearer abc' })).toBe('the word abc');
  });
});
