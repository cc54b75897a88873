import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat-model.js';
import { createMockModel } from '../testing/mock-model.js';
import { rateLimitMiddleware, wrapChatModel } from './index.js';

/** A fake clock whose sleep advances time, so waits are exact and instant. */
function fakeClock() {
  const clock = { t: 0, sleeps: [] as number[] };
  return {
    clock,
    now: () => clock.t,
    sleep: async (ms: number) => { clock.sleeps.push(ms); clock.t += ms; },
  };
}

const req = (content = 'x', maxTokens = 10): ChatRequest => ({ messages: [{ role: 'user', content }], params: { maxTokens } });

describe('rateLimitMiddleware', () => {
  it('lets a burst through, then spaces requests at the per-minute rate', async () => {
    const { clock, now, sleep } = fakeClock();
    const starts: number[] = [];
    const model = wrapChatModel(createMockModel(() => { starts.push(clock.t); return 'ok'; }), rateLimitMiddleware({ requestsPerMinute: 60, burst: 2, now, sleep }));
    for (let i = 0; i < 5; i++) await model.generate(req());
    // 60/min = one per second once the burst of 2 is spent.
    expect(starts).toEqual([0, 0, 1000, 2000, 3000]);
  });

  it('serves concurrent callers in arrival order', async () => {
    const { now, sleep } = fakeClock();
    const order: string[] = [];
    const model = wrapChatModel(createMockModel(r => { order.push(r.messages[0]!.content); return 'ok'; }), rateLimitMiddleware({ requestsPerMinute: 6, burst: 1, now, sleep }));
    await Promise.all(['a', 'b', 'c', 'd'].map(c => model.generate(req(c))));
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refills while idle, up to the burst', async () => {
    const { clock, now, sleep } = fakeClock();
    const model = wrapChatModel(createMockModel(() => 'ok'), rateLimitMiddleware({ requestsPerMinute: 60, burst: 3, now, sleep }));
    for (let i = 0; i < 3; i++) await model.generate(req());
    clock.t += 10_000; // refills to 3, not 10
    clock.sleeps.length = 0;
    for (let i = 0; i < 4; i++) await model.generate(req());
    expect(clock.sleeps).toEqual([1000]);
  });

  it('limits tokens per minute using the estimate, then corrects by reported usage', async () => {
    const { clock, now, sleep } = fakeClock();
    const starts: number[] = [];
    // Each call estimates 100 tokens; each reports 400.
    const inner = createMockModel(() => { starts.push(clock.t); return { text: 'ok', usage: { inputTokens: 300, outputTokens: 100 }, warnings: [] }; });
    const model = wrapChatModel(inner, rateLimitMiddleware({ requestsPerMinute: 1000, tokensPerMinute: 600, now, sleep, estimateTokens: () => 100 }));
    await model.generate(req());
    // 600 - 400 used = 200 left: the next (100) goes now, leaving -200 after its usage.
    await model.generate(req());
    // Needs 100 from -200: 300 tokens at 10 per second = 30 s.
    await model.generate(req());
    expect(starts).toEqual([0, 0, 30_000]);
  });

  it('lets a request larger than the whole token budget through on a full bucket', async () => {
    const { now, sleep } = fakeClock();
    const model = wrapChatModel(createMockModel(() => 'ok'), rateLimitMiddleware({ requestsPerMinute: 100, tokensPerMinute: 50, now, sleep }));
    await expect(model.generate(req('x'.repeat(4000), 1000))).resolves.toMatchObject({ text: 'ok' });
  });
});
