import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel } from '../../core/chat-model.js';
import { createAnthropicModel } from '../anthropic/index.js';
import { createOpenAICompatibleModel } from '../openai-compatible/index.js';
import { callError } from '../testing/call-error.js';
import { anthropicMessageBody, openAIChatBody, startAnthropicServer, startOpenAICompatibleServer, type FakeServer } from '../testing/fake-servers.js';
import type { FetchFunction } from './post-json.js';

// A key with a slash, so JSON may write it `\/`.
const KEY = 'sk-proj/ECHOED-4242-abcdef';
/** The key as a JSON encoder that escapes everything might write it. */
const escaped = (key: string) => [...key].map((c, i) => (c === '/' ? '\\/' : i % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');
const ask = { messages: [{ role: 'user' as const, content: 'x' }], params: { maxTokens: 5 } };

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Protocol = { name: string; start: typeof startOpenAICompatibleServer; model: (s: FakeServer, o?: { maxResponseBytes?: number; fetch?: FetchFunction }) => ChatModel; ok: (text: string) => unknown };
const protocols: Protocol[] = [
  { name: 'OpenAI-compatible', start: startOpenAICompatibleServer, model: (s, o) => createOpenAICompatibleModel({ model: 'm', baseURL: s.baseURL, apiKey: KEY, ...o }), ok: text => openAIChatBody({ text }) },
  { name: 'Anthropic', start: startAnthropicServer, model: (s, o) => createAnthropicModel({ model: 'claude-x', baseURL: s.origin, apiKey: KEY, ...o }), ok: text => anthropicMessageBody({ text }) },
];

describe.each(protocols)('$name under a hostile server', p => {
  it('redacts a key echoed with \\u escapes and \\/ in an error body, before and after decoding', async () => {
    server = await p.start({ replies: [{ status: 401, body: `{"error":{"type":"auth","message":"Incorrect API key provided: ${escaped(KEY)}"}}` }] });
    const e = await callError(p.model(server).generate(ask));
    const seen = `${e.message}\n${e.responseBody ?? ''}\n${JSON.stringify(JSON.parse(e.responseBody ?? '{}'))}`;
    expect(seen).not.toContain(KEY);
    expect(seen).not.toContain('ECHOED');
    expect(e.message).toContain('[redacted]');
  });

  it('redacts an escaped key echoed inside a successful answer (text and raw)', async () => {
    server = await p.start({ replies: [{ body: JSON.stringify(p.ok(`your key is ${KEY}`)).replace(KEY, escaped(KEY)) }] });
    const result = await p.model(server).generate(ask);
    expect(`${result.text} ${JSON.stringify(result.raw)}`).not.toContain('ECHOED');
    expect(result.text).toBe('your key is [redacted]');
  });

  it('cuts a body over maxResponseBytes and fails the call, not retryable, with the cut flagged', async () => {
    const huge = JSON.stringify(p.ok('y'.repeat(3 * 1024 * 1024)));
    server = await p.start({ replies: [{ body: huge }] });
    const e = await callError(p.model(server, { maxResponseBytes: 1024 * 1024 }).generate(ask));
    expect(e.kind).toBe('too-large');
    expect(e.isRetryable).toBe(false);
    expect(e.bodyTruncated).toBe(true);
    expect(e.message).toMatch(/larger than the limit of 1048576 bytes \(maxResponseBytes\)/);
    expect(e.responseBody!.length).toBeLessThanOrEqual(8000);
  });

  it('enforces the cap after the fact for an injected fetch that reads everything', async () => {
    server = await p.start({ replies: [{ body: JSON.stringify(p.ok('z'.repeat(200_000))) }] });
    const e = await callError(p.model(server, { maxResponseBytes: 100_000, fetch: (url, init) => fetch(url, init) }).generate(ask));
    expect(e.kind).toBe('too-large');
  });

  it('flags a body that is not valid UTF-8 with a warning on the result', async () => {
    const json = JSON.stringify(p.ok('caf\u00e9 X'));
    const bytes = Buffer.from(json, 'utf8');
    // Replace the X by a lone continuation byte: not UTF-8.
    bytes[bytes.indexOf(0x58)] = 0x80;
    server = await p.start({ replies: [{ body: bytes }] });
    const result = await p.model(server).generate(ask);
    expect(result.warnings).toContainEqual(expect.objectContaining({ setting: 'encoding', message: expect.stringMatching(/not valid UTF-8/) }));
    const clean = await (async () => {
      server!.enqueue({ body: Buffer.from(json, 'utf8') });
      return p.model(server!).generate(ask);
    })();
    expect(clean.warnings.some(w => w.setting === 'encoding')).toBe(false);
  });
});
