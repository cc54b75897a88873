import { describe, expect, it } from 'vitest';
import type { CallRecord, Store } from '../core/index.js';
import { openStore } from '../store/index.js';
import { createBudget } from './budget.js';

/** A stored call of `costUsd`, as the call path writes it before releasing the call's reservation. */
const spend = (store: Store, costUsd: number) => store.saveCall({
  runId: 'r', trialId: 't', step: 0, requestHash: `h${costUsd}`, request: { messages: [], params: {} }, status: 'ok',
  result: { text: '', warnings: [] }, attempts: 1, latencyMs: 1, costUsd, cached: false, createdAt: '2026-01-01T00:00:00.000Z',
} satisfies CallRecord);

describe('createBudget', () => {
  it('admits calls while spent plus reservations fit, and refuses once nothing in flight could free room', async () => {
    const store = await openStore('sqlite::memory:');
    await spend(store, 0.004);
    const b = createBudget({ store, runId: 'r', workerId: 'w', capUsd: 0.01, spentUsd: 0.004 });
    const hold = (await b.reserve(0.003))!;
    expect(hold).toBeDefined();
    const stored = spend(store, 0.003);
    b.settle(hold, 0.003, stored);
    await stored;
    expect(b.spentUsd).toBeCloseTo(0.007, 12);
    expect(await b.reserve(0.004)).toBeUndefined();
    expect(await b.reserve(0.002)).toBeDefined();
  });

  it('waits for a call in flight instead of refusing, and goes on when its real cost was lower', async () => {
    const store = await openStore('sqlite::memory:');
    const b = createBudget({ store, runId: 'r', workerId: 'w', capUsd: 0.01, spentUsd: 0 });
    const first = (await b.reserve(0.006))!;
    let second: unknown = 'waiting';
    const pending = b.reserve(0.006).then(r => (second = r));
    await new Promise(resolve => setTimeout(resolve, 20));
    expect(second).toBe('waiting');
    b.settle(first, 0.001, spend(store, 0.001));
    await pending;
    expect(second).toBeDefined();
    expect(await store.reservedUsd('r')).toBeCloseTo(0.006, 12);
  });

  it('refuses (never hangs) once the calls it waited for have settled, whatever their estimates add up to', async () => {
    // 0.1 + 0.3 - 0.1 - 0.3 is 5.6e-17 in floating point: a waiter counting that as "a call in flight" waits forever.
    const store = await openStore('sqlite::memory:');
    const b = createBudget({ store, runId: 'r', workerId: 'w', capUsd: 0.5, spentUsd: 0 });
    const x = (await b.reserve(0.1))!;
    const y = (await b.reserve(0.3))!;
    const third = b.reserve(0.2);
    b.settle(x, 0.1, spend(store, 0.1));
    b.settle(y, 0.3, spend(store, 0.3));
    const timeout = new Promise(resolve => setTimeout(() => resolve('hung'), 2000));
    expect(await Promise.race([third, timeout])).toBeUndefined();
  });

  it('counts another worker\'s reservations: the cap holds across processes', async () => {
    const store = await openStore('sqlite::memory:');
    await store.reserveBudget('r', { id: 'other', workerId: 'elsewhere', amountUsd: 0.008 }, 1);
    const b = createBudget({ store, runId: 'r', workerId: 'w', capUsd: 0.01, spentUsd: 0, pollMs: 5 });
    let got: unknown = 'waiting';
    const pending = b.reserve(0.005).then(r => (got = r));
    await new Promise(resolve => setTimeout(resolve, 30));
    expect(got).toBe('waiting');
    await store.releaseBudget('r', 'other');
    await pending;
    expect(got).toBeDefined();
  });

  it('has no cap without one, records overshoot past the reservation, and cancel() releases waiters', async () => {
    const store = await openStore('sqlite::memory:');
    const free = createBudget({ store, runId: 'r', workerId: 'w', capUsd: undefined, spentUsd: 0 });
    const hold = (await free.reserve(1e9))!;
    free.settle({ ...hold, estimateUsd: 0.5 }, 0.75);
    expect(free.overshootUsd).toBeCloseTo(0.25, 12);
    const b = createBudget({ store, runId: 'r', workerId: 'w', capUsd: 0.01, spentUsd: 0 });
    await b.reserve(0.009);
    const pending = b.reserve(0.009);
    b.cancel();
    expect(await pending).toBeUndefined();
  });
});
