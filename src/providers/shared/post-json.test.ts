import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
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

describe('a connection the server closes', () => {
  /** A raw server that answers every connection with `reply` and closes it. */
  async function closingServer(reply: string): Promise<{ url: string; server: Server }> {
    const server = createServer(socket => socket.once('data', () => (reply ? socket.end(reply) : socket.destroy())));
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
  }

  it('mid-answer is said to be a cut answer (the server was reached), before any answer a hang-up', async () => {
    for (const [reply, expected] of [
      ['HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 80\r\n\r\n{"choices": [', /began to answer \(HTTP 200\) but closed the connection before the answer ended: ECONNRESET/],
      ['', /could not be reached: ECONNRESET/],
    ] as const) {
      const { url, server: raw } = await closingServer(reply);
      try {
        const model = createOpenAICompatibleModel({ model: 'm', baseURL: url, apiKey: 'k' });
        const e = await callError(model.generate({ messages: [{ role: 'user', content: 'x' }], params: {} }));
        expect(e.message).toMatch(expected);
        expect(e.kind).toBe('network');
      } finally {
        raw.close();
      }
    }
  });
});
