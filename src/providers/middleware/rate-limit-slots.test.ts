import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest, Store } from '../../core/index.js';
import { openStore } from '../../store/index.js';
import { createMockModel } from '../testing/mock-model.js';
import { sharedSlotsMiddleware, wrapChatModel } from './index.js';

const stores: Store[] = [];
afterEach(async () => { await Promise.all(stores.splice(0).map(s => s.close())); });

async function twoWorkers(): Promise<[Store, Store]> {
  const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-slots-')), 's.db')}`;
  const a = await openStore(url);
  const b = await openStore(url);
  stores.push(a, b);
  return [a, b];
}

const req = (): ChatRequest => ({ messages: [{ role: 'user', content: 'x' }], params: {} });
const pause = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe('sharedSlotsMiddleware', () => {
  it('two workers with six calls in flight each never have more than the cap of four in flight together', async () => {
    const [a, b] = await twoWorkers();
    let inFlight = 0;
    let most = 0;
    let asks = 0;
    const model = (store: Store) => wrapChatModel(
      createMockModel(async () => { most = Math.max(most, ++inFlight); await pause(15); inFlight--; return 'ok'; }),
      sharedSlotsMiddleware({ store: { holdSlots: (...args) => { asks++; return store.holdSlots(...args); } }, key: 'in-flight m', max: 4 }),
    );
    const models = [model(a), model(b)];
    await Promise.all(models.flatMap(m => Array.from({ length: 6 }, async () => { for (let i = 0; i < 10; i++) await m.generate(req()); })));
    expect(most).toBe(4);
    // A finished call hands its slot to the next one waiting in its process: far fewer asks than calls.
    expect(asks).toBeLessThan(120 / 2);
  });

  it('gives its slots back once its calls are over, so another worker gets the whole cap', async () => {
    const [a, b] = await twoWorkers();
    const gate = (store: Store) => wrapChatModel(createMockModel(async () => { await pause(5); return 'ok'; }), sharedSlotsMiddleware({ store, key: 'in-flight g', max: 3, leaseMs: 20 }));
    await Promise.all(Array.from({ length: 3 }, () => gate(a).generate(req())));
    await pause(100);
    // Every slot is free again: the other worker holds all three at once.
    expect([await b.holdSlots('in-flight g', 3, 'probe', 3, 1000)]).toEqual([3]);
  });

  it('a call that gives up while waiting for a slot leaves with an aborted error', async () => {
    const [a] = await twoWorkers();
    const m = wrapChatModel(createMockModel(async () => { await pause(200); return 'ok'; }), sharedSlotsMiddleware({ store: a, key: 'in-flight q', max: 1 }));
    const first = m.generate(req());
    const quit = new AbortController();
    const second = m.generate(req(), { signal: quit.signal });
    await pause(20);
    quit.abort();
    await expect(second).rejects.toMatchObject({ name: 'ProviderCallError', kind: 'aborted' });
    await expect(first).resolves.toMatchObject({ text: 'ok' });
  });
});
