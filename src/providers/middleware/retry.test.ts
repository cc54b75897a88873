import { describe, expect, it, vi } from 'vitest';
import { ProviderCallError } from '../../core/errors.js';
import { callError } from '../testing/call-error.js';
import { createMockModel } from '../testing/mock-model.js';
import { backoffDelay, retryMiddleware, wrapChatModel } from './index.js';

const request = { messages: [{ role: 'user' as const, content: 'x' }], params: {} };
const transient = (retryAfterMs?: number) =>
  new ProviderCallError({ message: 'busy', kind: 'http', statusCode: 503, isRetryable: true, retryAfterMs });

/** Fails `failures` times with the given error, then answers "ok". */
function flaky(failures: number, error: () => Error = () => transient()) {
  return createMockModel((_r, _o, i) => {
    if (i < failures) throw error();
    return 'ok';
  });
}

describe('retryMiddleware', () => {
  it('backs off exponentially with full jitter, capped at maxDelayMs', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    const draws = [0.5, 0.25, 1 - 1e-9, 0.625, 0.1];
    const random = vi.fn(() => draws.shift()!);
    const model = wrapChatModel(flaky(5), retryMiddleware({ maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1000, random, sleep }));
    const onRetry = vi.fn();
    expect((await model.generate(request, { onRetry })).text).toBe('ok');
    // Ceilings 100, 200, 400, 800, 1000 (capped) times the draws.
    expect(sleep.mock.calls.map(c => c[0])).toEqual([50, 50, 400, 500, 100]);
    expect(onRetry.mock.calls.map(c => [c[0].attempt, c[0].delayMs])).toEqual([[1, 50], [2, 50], [3, 400], [4, 500], [5, 100]]);
  });

  it('computes equal and no jitter as documented', () => {
    const shape = { baseDelayMs: 100, maxDelayMs: 10_000 };
    expect([1, 2, 3].map(a => backoffDelay(a, { ...shape, jitter: 'none' }, () => 0.5))).toEqual([100, 200, 400]);
    expect([1, 2, 3].map(a => backoffDelay(a, { ...shape, jitter: 'equal' }, () => 0))).toEqual([50, 100, 200]);
    expect(backoffDelay(20, { ...shape, jitter: 'none' }, () => 0)).toBe(10_000);
  });

  it('waits at least Retry-After, capped by maxRetryAfterMs', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    const afters = [2500, 999_999, 10];
    const model = wrapChatModel(
      flaky(3, () => transient(afters.shift())),
      retryMiddleware({ baseDelayMs: 100, jitter: 'none', maxRetryAfterMs: 30_000, sleep }),
    );
    await model.generate(request);
    // 2500 beats backoff 100; the huge one is capped; 10 is less than backoff 400.
    expect(sleep.mock.calls.map(c => c[0])).toEqual([2500, 30_000, 400]);
  });

  it('rethrows non-retryable and foreign errors at once', async () => {
    const sleep = vi.fn(async () => {});
    const fatal = new ProviderCallError({ message: 'bad key', kind: 'http', statusCode: 401, isRetryable: false });
    const a = flaky(1, () => fatal);
    expect(await callError(wrapChatModel(a, retryMiddleware({ sleep })).generate(request))).toBe(fatal);
    const b = flaky(1, () => new TypeError('bug'));
    await expect(wrapChatModel(b, retryMiddleware({ sleep })).generate(request)).rejects.toThrow(TypeError);
    expect([a.calls.length, b.calls.length]).toEqual([1, 1]);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('throws the last error after maxAttempts', async () => {
    let n = 0;
    const model = createMockModel(() => { throw transient(++n); });
    const error = await callError(wrapChatModel(model, retryMiddleware({ maxAttempts: 3, sleep: async () => {} })).generate(request));
    expect(error.retryAfterMs).toBe(3);
    expect(model.calls).toHaveLength(3);
  });

  it('rejects as aborted when the signal fires during the wait (real sleep)', async () => {
    const controller = new AbortController();
    const model = wrapChatModel(flaky(10), retryMiddleware({ baseDelayMs: 60_000, jitter: 'none' }));
    setTimeout(() => controller.abort(), 20);
    const error = await callError(model.generate(request, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'aborted', isRetryable: false });
  });

  it('ends a backoff with the last failure, trying nothing again, when retryUntil fires (a drain); tries nothing again once it has', async () => {
    const drain = new AbortController();
    const inner = createMockModel(() => { throw transient(1); });
    const model = wrapChatModel(inner, retryMiddleware({ baseDelayMs: 60_000, jitter: 'none' }));
    const run = model.generate(request, { retryUntil: drain.signal, signal: new AbortController().signal });
    setTimeout(() => drain.abort(), 20);
    const error = await callError(run);
    expect(error).toMatchObject({ isRetryable: true, retryAfterMs: 1 });
    expect(inner.calls).toHaveLength(1);
    const again = await callError(model.generate(request, { retryUntil: drain.signal }));
    expect(again).toMatchObject({ isRetryable: true });
    expect(inner.calls).toHaveLength(2);
  });
});
