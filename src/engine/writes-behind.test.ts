import { describe, expect, it } from 'vitest';
import { writesBehind } from './writes-behind.js';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
};
const settle = () => new Promise(resolve => setImmediate(resolve));

describe('writesBehind', () => {
  it('makes a worker wait only while more than the limit are unsettled, and wakes it when one settles', async () => {
    const behind = writesBehind(2);
    const writes = [deferred(), deferred(), deferred()];
    behind.add(writes[0]!.promise);
    behind.add(writes[1]!.promise);
    expect(behind.room()).toBeUndefined();
    behind.add(writes[2]!.promise);
    const room = behind.room();
    expect(room).toBeInstanceOf(Promise);
    let woke = false;
    void room!.then(() => { woke = true; });
    await settle();
    expect(woke).toBe(false);
    writes[1]!.resolve();
    await settle();
    expect(woke).toBe(true);
    expect(behind.room()).toBeUndefined();
  });

  it('counts settled writes out, so a worker of fewer trials than the limit keeps none of them', async () => {
    const behind = writesBehind(1);
    for (let i = 0; i < 5; i++) {
      const w = deferred();
      behind.add(w.promise);
      w.resolve();
      await settle();
      // Five writes added, each settled before the next: never more than one unsettled.
      expect(behind.room()).toBeUndefined();
    }
  });

  it('drains only when every write has settled', async () => {
    const behind = writesBehind(10);
    const a = deferred();
    const b = deferred();
    behind.add(a.promise);
    behind.add(b.promise);
    let drained = false;
    void behind.drained().then(() => { drained = true; });
    a.resolve();
    await settle();
    expect(drained).toBe(false);
    b.resolve();
    await settle();
    expect(drained).toBe(true);
    await expect(writesBehind(1).drained()).resolves.toBeUndefined();
  });

  it('passes on the first write that rejected, to the drain and to a worker waiting for room', async () => {
    const behind = writesBehind(0);
    const a = deferred();
    const b = deferred();
    behind.add(a.promise);
    const room = behind.room()!;
    behind.add(b.promise);
    a.reject(new Error('listener threw'));
    await expect(room).rejects.toThrow('listener threw');
    const drained = behind.drained();
    b.resolve();
    await expect(drained).rejects.toThrow('listener threw');
    await expect(behind.room()!).rejects.toThrow('listener threw');
  });
});
