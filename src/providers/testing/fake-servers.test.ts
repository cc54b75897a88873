import { describe, expect, it } from 'vitest';
import { startAnthropicServer, startFakeServer, startOpenAICompatibleServer } from './fake-servers.js';

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('fake servers', () => {
  it('serve the scripted queue in order, then the default, recording each request', async () => {
    const server = await startOpenAICompatibleServer({ replies: [{ status: 418, body: { error: { message: 'teapot' } } }] });
    server.enqueue((request, index) => ({ status: 201, headers: { 'x-index': String(index) }, body: { path: request.path } }));
    try {
      const url = `${server.baseURL}/chat/completions`;
      const first = await post(url, { model: 'm', messages: [] }, { 'x-trace': 'one' });
      const second = await post(url, { model: 'm', messages: [] });
      const third = await post(url, { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect([first.status, second.status, third.status]).toEqual([418, 201, 200]);
      expect(second.headers.get('x-index')).toBe('1');
      expect(await second.json()).toEqual({ path: '/v1/chat/completions' });
      const completion = await third.json() as { choices: Array<{ message: { content: string } }> };
      expect(completion.choices[0]!.message.content).toBe('echo: hi');
      expect(server.requests.map(r => r.method)).toEqual(['POST', 'POST', 'POST']);
      expect(server.requests[0]!.headers['x-trace']).toBe('one');
      expect(server.requests[2]!.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    } finally {
      await server.close();
    }
  });

  it('answer unknown routes with 404 in each protocol’s error shape', async () => {
    const openai = await startOpenAICompatibleServer();
    const anthropic = await startAnthropicServer();
    try {
      const a = await post(`${openai.baseURL}/embeddings`, {});
      const b = await post(`${anthropic.baseURL}/v1/complete`, {});
      expect([a.status, b.status]).toEqual([404, 404]);
      expect(((await a.json()) as { error: { message: string } }).error.message).toMatch(/no route/);
      expect((await b.json())).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    } finally {
      await Promise.all([openai.close(), anthropic.close()]);
    }
  });

  it('close promptly even with a request left hanging', async () => {
    const server = await startFakeServer({ replies: [{ hang: true }] });
    const pending = post(server.baseURL, {}).catch(error => error as Error);
    while (server.requests.length === 0) await new Promise(resolve => setTimeout(resolve, 5));
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
