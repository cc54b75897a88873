import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { parseScenario } from './load.js';
import { buildChatModel } from './models.js';
import { LOOP_SCENARIO } from './testing/fixtures.js';

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map(s => s.close()));
  servers = [];
});

const KARGS = '{ temperature: 0.2, timeout: 0.3, max_retries: 1, streaming: true, model_kwargs: { top_p: 0.5, response_format: { type: json_object } }, logprobs: true }';

function withTutor(baseURL: string, kargs = KARGS, retry = '') {
  const text = LOOP_SCENARIO
    .replace('  retry: { attempt: 1, interval: 0 }\n', retry)
    .replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', `tutor: { type: openai, model: tutor-model, api_base: "${baseURL}", kargs: ${kargs} }`);
  return parseScenario('/tmp/kargs.yaml', text, { env: {} });
}

describe('ELMES client options in kargs', () => {
  it('are not request parameters: timeout, max_retries and streaming stay out of the body; model_kwargs is merged in', async () => {
    const server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: 'hi' }) }));
    servers.push(server);
    const s = withTutor(server.baseURL);
    const tutor = s.models.get('tutor')!;
    expect(tutor.params).toEqual({ temperature: 0.2, topP: 0.5, providerOptions: { openai: { response_format: { type: 'json_object' }, logprobs: true } } });
    expect(tutor).toMatchObject({ timeoutSeconds: 0.3, maxAttempts: 2 });
    expect(s.warnings).toContain('models.tutor.kargs.streaming: ignored; Paideia asks for and stores whole answers');
    await buildChatModel(tutor, { retry: s.globals.retry }).generate({ messages: [{ role: 'user', content: 'x' }], params: tutor.params });
    const body = server.requests[0]!.body as Record<string, unknown>;
    for (const key of ['timeout', 'max_retries', 'streaming', 'model_kwargs']) expect(body).not.toHaveProperty(key);
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.5, response_format: { type: 'json_object' }, logprobs: true });
    expect(body.stream ?? false).toBe(false);
  });

  it('max_retries sets the attempts (unless globals.retry.attempt is given); timeout is the per-attempt timeout in seconds', async () => {
    const server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: 'late' }), delayMs: 1500 }));
    servers.push(server);
    const s = withTutor(server.baseURL, '{ timeout: 0.2, max_retries: 1 }', '  retry: { interval: 0 }\n');
    const tutor = s.models.get('tutor')!;
    const started = Date.now();
    await expect(buildChatModel(tutor, { retry: s.globals.retry }).generate({ messages: [{ role: 'user', content: 'x' }], params: tutor.params })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1400);
    expect(server.requests).toHaveLength(2);

    const fixed = withTutor(server.baseURL, '{ max_retries: 4 }', '  retry: { attempt: 1, interval: 0 }\n');
    expect(fixed.models.get('tutor')!.maxAttempts).toBeUndefined();
    expect(fixed.warnings).toContain('models.tutor.kargs.max_retries: ignored; globals.retry.attempt (1) sets the attempts');
  });

  it('a credential-like key inside model_kwargs is refused like one in kargs', () => {
    expect(() => withTutor('http://127.0.0.1:9/v1', '{ model_kwargs: { api_key: "sk-x" } }')).toThrow(/"api_key" looks like a credential/);
  });
});
