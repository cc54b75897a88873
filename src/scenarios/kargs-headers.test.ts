import { afterEach, describe, expect, it } from 'vitest';
import { callError } from '../providers/testing/call-error.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { parseScenario } from './load.js';
import { buildChatModel } from './models.js';
import { LOOP_SCENARIO } from './testing/fixtures.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-header-secret-99887766';

function withTutor(baseURL: string, kargs: string, env: Record<string, string> = {}) {
  const text = LOOP_SCENARIO.replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', `tutor: { type: openai, model: tutor-model, api_base: "${baseURL}", kargs: ${kargs} }`);
  return parseScenario('/tmp/headers.yaml', text, { env });
}

describe('credentials in kargs headers', () => {
  const kargs = (key: string) => `{ temperature: 0, headers: { Authorization: "Bearer ${key}" }, model_kwargs: { extra_headers: { X-Title: paideia-test } } }`;

  it('are sent as HTTP headers, never in the request body, and never in the stored config', async () => {
    server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: 'hi' }) }));
    const s = withTutor(server.baseURL, kargs(KEY));
    const tutor = s.models.get('tutor')!;
    await buildChatModel(tutor, { retry: s.globals.retry }).generate({ messages: [{ role: 'user', content: 'x' }], params: tutor.params });
    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['x-title']).toBe('paideia-test');
    expect(request.rawBody).not.toContain(KEY);
    expect(request.rawBody).not.toContain('headers');
    expect(JSON.stringify(tutor.params)).not.toContain(KEY);
    expect(JSON.stringify(s.redacted)).not.toContain(KEY);
    expect(JSON.stringify(s.redacted)).toContain('[redacted]');
  });

  it('keep the scenario hash when the key rotates, and a ${VAR} reference is substituted', () => {
    const a = withTutor('http://127.0.0.1:9/v1', kargs(KEY));
    const b = withTutor('http://127.0.0.1:9/v1', kargs('sk-another-key-11223344'));
    expect(a.hash).toBe(b.hash);
    const fromEnv = withTutor('http://127.0.0.1:9/v1', '{ headers: { Authorization: "Bearer ${TUTOR_KEY}" } }', { TUTOR_KEY: KEY });
    expect(fromEnv.models.get('tutor')!.headers).toEqual({ authorization: `Bearer ${KEY}` });
    expect(JSON.stringify(fromEnv.redacted)).toContain('${TUTOR_KEY}');
  });

  it('are redacted when the server echoes them', async () => {
    server = await startOpenAICompatibleServer(() => ({ status: 401, body: { error: { message: `bad token ${KEY}` } } }));
    const s = withTutor(server.baseURL, kargs(KEY).replace('temperature: 0', 'max_retries: 0'));
    const tutor = s.models.get('tutor')!;
    const e = await callError(buildChatModel(tutor, { retry: { attempt: 1, intervalSeconds: 0 } }).generate({ messages: [{ role: 'user', content: 'x' }], params: tutor.params }));
    expect(`${e.message} ${e.responseBody}`).not.toContain(KEY);
  });

  it('refuses header names and values that HTTP cannot carry, by field', () => {
    expect(() => withTutor('http://127.0.0.1:9/v1', '{ headers: { "Bad Name": x } }')).toThrow(/kargs\.headers\.Bad Name.*not a valid HTTP header name/);
    expect(() => withTutor('http://127.0.0.1:9/v1', '{ headers: { X-A: "a\\nb" } }')).toThrow(/may not hold line breaks/);
    expect(() => withTutor('http://127.0.0.1:9/v1', '{ headers: [x] }')).toThrow(/must be a mapping of header names/);
  });
});
