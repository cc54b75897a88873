import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { claimRunTrials, processAlive, runHeldLive } from './claims.js';

describe('processAlive', () => {
  it('is false for a zombie (killed, not yet reaped), which signal 0 still reaches', async () => {
    // The shell starts a short sleep, prints its pid and becomes a long sleep that never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = Number(await new Promise<string>(resolve => parent.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))));
    await new Promise(resolve => setTimeout(resolve, 400));
    try {
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(processAlive(pid)).toBe(false);
      expect(processAlive(process.pid)).toBe(true);
    } finally {
      parent.kill();
    }
  });
});

describe('claimRunTrials', () => {
  it('refuses a list that names one trial twice (a wrong plan), before claiming anything', async () => {
    const store = await openStore('sqlite::memory:');
    await expect(claimRunTrials(store, 'r', ['a', 'b', 'a'], { pid: 1, host: 'h' })).rejects.toThrow(/trials 0 and 2 of run r have the same id a/);
    expect(await store.listClaimHolders('r')).toEqual([]);
  });

  it('holds by place in the list those trials nobody else holds, and those a work queue gave it instead', async () => {
    const store = await openStore('sqlite::memory:');
    await store.claimTrials('r', { workerId: 'other', pid: 1, host: 'elsewhere' }, ['b'], Date.now() + 60_000);
    const mine = await claimRunTrials(store, 'r', ['a', 'b', 'c'], { pid: 2, host: 'h' });
    expect([0, 1, 2].map(i => mine.holds(i))).toEqual([true, false, true]);
    expect(mine.count).toBe(2);
    await mine.release();
    // A worker's view answers the first ask with its batch from the queue, whatever was asked.
    const queue = { ...store, claimTrials: async () => ['c', 'x'] };
    const batch = await claimRunTrials(queue, 'r', ['a', 'b', 'c'], { pid: 3, host: 'h' });
    expect([0, 1, 2].map(i => batch.holds(i))).toEqual([false, false, true]);
    expect(batch.count).toBe(2);
    await batch.release();
  });

  it('refuses a run a live process holds, takes a dead (or zombie) holder\'s claims at once, and releases', async () => {
    const store = await openStore('sqlite::memory:');
    const first = await claimRunTrials(store, 'r', ['a', 'b'], { pid: 111, host: 'h', isAlive: () => true });
    expect([first.holds(0), first.holds(1), first.count]).toEqual([true, true, 2]);
    await expect(claimRunTrials(store, 'r', ['a', 'b'], { pid: 222, host: 'h', isAlive: () => true })).rejects.toThrow(/run r is being run by process 111 on h/);
    const taken = await claimRunTrials(store, 'r', ['a', 'b'], { pid: 222, host: 'h', isAlive: pid => pid !== 111 });
    expect([taken.holds(0), taken.holds(1), taken.count]).toEqual([true, true, 2]);
    // On another host nothing says the holder is dead: its claims hold until they expire.
    await expect(claimRunTrials(store, 'r', ['a'], { pid: 333, host: 'other', isAlive: () => false })).rejects.toThrow(/process 222 on h/);
    await taken.release();
    expect(await store.listClaimHolders('r')).toEqual([]);
  });

  it('notices when a renewal finds its claims taken over, so the worker stops', async () => {
    const store = await openStore('sqlite::memory:');
    let lost = false;
    const held = await claimRunTrials(store, 'r', ['a'], { pid: 1, host: 'h', ttlMs: 30, onLost: () => { lost = true; } });
    await store.claimTrials('r', { workerId: 'thief', pid: 2, host: 'elsewhere' }, ['a'], Date.now() - 1);
    await store.releaseClaims('r', held.worker.workerId);
    await new Promise(resolve => setTimeout(resolve, 60));
    expect(lost).toBe(true);
    expect(held.lost).toBe(true);
    await held.release();
  });

  it('after a pause longer than half the lease counts as stale, and confirming finds out whether the claims are still held', async () => {
    const store = await openStore('sqlite::memory:');
    // A clock the test moves: the claims expire when it says, so a pause is a jump of it.
    let clock = Date.now() - 3_600_000;
    const held = await claimRunTrials(store, 'r', ['a', 'b'], { pid: 1, host: 'h', ttlMs: 10_000, now: () => clock });
    expect(held.stale).toBe(false);
    clock += 6_000;
    expect(held.stale).toBe(true);
    expect(await held.confirm()).toBe(true);
    expect(held.stale).toBe(false);
    // Paused past the lease: another worker takes one trial over (the stored expiry is long past).
    clock += 20_000;
    expect(await store.claimTrials('r', { workerId: 'other', pid: 2, host: 'h2' }, ['b'], Date.now() + 30_000)).toEqual(['b']);
    expect(held.stale).toBe(true);
    expect(await held.confirm()).toBe(false);
    expect(held.lost).toBe(true);
    expect(held.stale).toBe(true);
    await held.release();
  });
});

describe('runHeldLive', () => {
  it('holds for a running holder on this host or an unexpired lease elsewhere, by the rule claims are taken over by, and writes nothing', async () => {
    const store = await openStore('sqlite::memory:');
    const here = { host: 'h', now: () => 1_000 };
    expect(await runHeldLive(store, 'r', { ...here, isAlive: () => true })).toBe(false);
    await store.claimTrials('r', { workerId: 'w1', pid: 111, host: 'h' }, ['a'], 500);
    // this host: whether the process runs, whatever its lease says
    expect(await runHeldLive(store, 'r', { ...here, isAlive: () => true })).toBe(true);
    expect(await runHeldLive(store, 'r', { ...here, isAlive: () => false })).toBe(false);
    // another host: only the lease says anything
    await store.claimTrials('r', { workerId: 'w2', pid: 222, host: 'other' }, ['b'], 2_000);
    expect(await runHeldLive(store, 'r', { ...here, isAlive: () => false })).toBe(true);
    expect(await runHeldLive(store, 'r', { host: 'h', now: () => 3_000, isAlive: () => false })).toBe(false);
    expect((await store.listClaimHolders('r')).map(h => h.workerId).sort()).toEqual(['w1', 'w2']);
  });
});
