import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest, Store } from '../../core/index.js';
import { openStore } from '../../store/index.js';
import { createMockModel } from '../testing/mock-model.js';
import { rateLimitMiddleware, wrapChatModel } from './index.js';
import { sharedAdmission } from './rate-limit-shared.js';
import { busiestWindow as busiest } from '../testing/busiest-window.js';

const stores: Store[] = [];
afterEach(async () => { await Promise.all(stores.splice(0).map(s => s.close())); });

/** Two handles on one store file: two workers sharing its buckets. */
async function twoWorkers(): Promise<[Store, Store]> {
  const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-rate-')), 'r.db')}`;
  const a = await openStore(url);
  const b = await openStore(url);
  stores.push(a, b);
  return [a, b];
}

const req = (content = 'x'): ChatRequest => ({ messages: [{ role: 'user', content }], params: { maxTokens: 10 } });

describe('rateLimitMiddleware shared through the store', () => {
  it('two workers with 4 calls in flight each stay under one rate together', async () => {
    const [a, b] = await twoWorkers();
    const starts: number[] = [];
    // 40 a second, a burst of 4: 120 calls take at least (120 - 4) / 40 = 2.9 s.
    const limited = (store: Store) => wrapChatModel(
      createMockModel(() => { starts.push(performance.now()); return 'ok'; }),
      rateLimitMiddleware({ requestsPerMinute: 2400, burst: 4, shared: { store, key: 'openai:m http://x' } }),
    );
    const models = [limited(a), limited(b)];
    const t0 = performance.now();
    await Promise.all(models.flatMap(m => Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 15; i++) await m.generate(req());
    })));
    expect(starts).toHaveLength(120);
    expect(performance.now() - t0).toBeGreaterThan(2800);
    // A token bucket lets capacity + rate x (window + lease) through in a window: 4 + 40 x 1.2 = 52.
    expect(busiest(starts, 1000)).toBeLessThanOrEqual(52);
    // Over the whole run the rate is the limit's, give or take the burst.
    expect(busiest(starts, 2000)).toBeLessThanOrEqual(4 + 40 * 2.2);
  });

  it('takes permits for everyone waiting in one statement, not one per call', async () => {
    const [a] = await twoWorkers();
    let takes = 0;
    const counted = { takePermits: (...args: Parameters<Store['takePermits']>) => { takes++; return a.takePermits(...args); }, returnPermits: a.returnPermits.bind(a) };
    const admission = sharedAdmission({ store: counted, requests: { key: 'requests m', capacity: 100, perSecond: 100 } });
    await Promise.all(Array.from({ length: 100 }, () => admission.admit(0)));
    expect(takes).toBeLessThanOrEqual(3);
  });

  it('shares a tokens-per-minute limit, corrected by the usage each call reports', async () => {
    const [a, b] = await twoWorkers();
    const starts: number[] = [];
    // 6,000 a minute: a bucket of 6,000 refilled at 100 a second. Each call is estimated at 210
    // tokens and reports 420, so 16 calls charge 6,300 before the last one starts (its own
    // usage and the other worker's last come after): 3 s of waiting, none without the corrections.
    const limited = (store: Store) => wrapChatModel(
      createMockModel(() => { starts.push(performance.now()); return { text: 'ok', usage: { inputTokens: 400, outputTokens: 20 }, warnings: [] }; }),
      rateLimitMiddleware({ requestsPerMinute: 60_000, tokensPerMinute: 6000, estimateTokens: () => 210, shared: { store, key: 'openai:t' } }),
    );
    const models = [limited(a), limited(b)];
    const t0 = performance.now();
    await Promise.all(models.map(async m => { for (let i = 0; i < 8; i++) await m.generate(req()); }));
    expect(starts).toHaveLength(16);
    expect(performance.now() - t0).toBeGreaterThan(2000);
    expect(performance.now() - t0).toBeLessThan(6000);
  });

  it('a caller that gives up while waiting leaves with an aborted error, and its place goes to the next', async () => {
    const [a] = await twoWorkers();
    const admission = sharedAdmission({ store: a, requests: { key: 'requests slow', capacity: 1, perSecond: 5 } });
    await admission.admit(0);
    const quit = new AbortController();
    const gaveUp = admission.admit(0, quit.signal);
    const next = admission.admit(0);
    quit.abort();
    await expect(gaveUp).rejects.toMatchObject({ name: 'ProviderCallError', kind: 'aborted' });
    const t0 = performance.now();
    await next;
    // One permit at 5 a second: the next one in line waits about 200 ms, not 400.
    expect(performance.now() - t0).toBeLessThan(380);
  });
});
