import { describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { acquireRunLease } from './lease.js';

describe('acquireRunLease', () => {
  it('refuses a run held by a live process, and hands it over once released', async () => {
    const store = await openStore('sqlite::memory:');
    const first = await acquireRunLease(store, 'r', { pid: 111, host: 'h', isAlive: () => true });
    await expect(acquireRunLease(store, 'r', { pid: 222, host: 'h', isAlive: () => true })).rejects.toThrow(/run r is being run by process 111 on h/);
    await first.release();
    const second = await acquireRunLease(store, 'r', { pid: 222, host: 'h', isAlive: () => true });
    expect((await store.getRunLease('r'))?.holderId).toBe(second.lease.holderId);
    await second.release();
    expect(await store.getRunLease('r')).toBeUndefined();
  });

  it('takes over at once from a dead process on this host (kill -9), and from another host only after expiry', async () => {
    const store = await openStore('sqlite::memory:');
    let t = 1_000_000;
    await acquireRunLease(store, 'r', { pid: 111, host: 'h', now: () => t, ttlMs: 30_000 });
    const taken = await acquireRunLease(store, 'r', { pid: 222, host: 'h', now: () => t, isAlive: pid => pid !== 111 });
    expect(taken.lease.pid).toBe(222);
    await expect(acquireRunLease(store, 'r', { pid: 333, host: 'other', now: () => t, isAlive: () => false })).rejects.toThrow(/process 222 on h/);
    t += 31_000;
    const later = await acquireRunLease(store, 'r', { pid: 333, host: 'other', now: () => t });
    expect(later.lease.host).toBe('other');
    await later.release();
    await taken.release(); // no longer the holder: leaves the other's state alone
    expect(await store.getRunLease('r')).toBeUndefined();
  });

  it('lets exactly one of two simultaneous takers win', async () => {
    const store = await openStore('sqlite::memory:');
    const results = await Promise.allSettled([1, 2].map(pid => acquireRunLease(store, 'r', { pid, host: 'h', isAlive: () => true })));
    expect(results.filter(r => r.status === 'fulfilled')).toHaveLength(1);
  });
});
