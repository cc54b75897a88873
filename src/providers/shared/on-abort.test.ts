import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { concurrencyMiddleware } from '../middleware/concurrency.js';
import { sleep } from '../middleware/sleep.js';
import { wrapChatModel } from '../middleware/wrap.js';
import { createOpenAICompatibleModel } from '../openai-compatible/index.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../testing/fake-servers.js';
import { onAbort } from './on-abort.js';

const abortListeners = (s: AbortSignal) => getEventListeners(s, 'abort').length;
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('onAbort', () => {
  it('puts one listener on the signal for any number of waiters, calls each once, and forgets stopped ones', () => {
    const c = new AbortController();
    const calls: number[] = [];
    const stops = Array.from({ length: 40 }, (_, i) => onAbort(c.signal, () => calls.push(i)));
    expect(abortListeners(c.signal)).toBe(1);
    stops[3]!();
    c.abort();
    c.abort();
    expect(calls).toHaveLength(39);
    expect(calls).not.toContain(3);
  });

  it('does nothing for a missing or already aborted signal', () => {
    const c = new AbortController();
    c.abort();
    let called = false;
    onAbort(c.signal, () => (called = true))();
    onAbort(undefined, () => (called = true))();
    expect(called).toBe(false);
  });
});

describe('calls sharing one run signal (concurrency 16 and more)', () => {
  it('32 HTTP calls in flight, 20 retry pauses and 10 queued calls leave one abort listener and no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, delayMs: 150, body: openAIChatBody({ text: 'ok' }) }) });
      const run = new AbortController();
      const model = createOpenAICompatibleModel({ model: 'm', baseURL: server.baseURL });
      const inFlight = Array.from({ length: 32 }, () => model.generate({ messages: [{ role: 'user', content: 'x' }], params: {} }, { signal: run.signal }));
      const pauses = Array.from({ length: 20 }, () => sleep(60_000, run.signal).catch((e: Error) => e));
      const limited = wrapChatModel(model, concurrencyMiddleware({ limit: 1 }));
      const queued = Array.from({ length: 10 }, () => limited.generate({ messages: [{ role: 'user', content: 'y' }], params: {} }, { signal: run.signal }).catch((e: Error) => e));
      await new Promise(r => setTimeout(r, 50));
      expect(abortListeners(run.signal)).toBe(1);
      await Promise.all(inFlight);
      run.abort();
      expect((await Promise.all(pauses)).every(e => e instanceof Error && /Aborted/.test(e.message))).toBe(true);
      await Promise.all(queued);
      expect(abortListeners(run.signal)).toBe(0);
      await new Promise(r => setImmediate(r));
      expect(warnings.filter(w => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
