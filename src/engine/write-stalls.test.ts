import { describe, expect, it } from 'vitest';
import { writeStalls } from './write-stalls.js';

function pending() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
const tick = () => new Promise(resolve => setImmediate(resolve));

describe('writeStalls', () => {
  it('waits only while the oldest watched write is older than the limit, through commits and failures', async () => {
    let t = 0;
    const stalls = writeStalls(100, () => t);
    expect(stalls.wait()).toBeUndefined();
    const [a, b, c] = [pending(), pending(), pending()];
    stalls.track(a.promise);
    t = 50;
    stalls.track(b.promise);
    t = 100;
    expect(stalls.wait()).toBeUndefined();
    t = 101;
    stalls.track(c.promise);
    let released = false;
    void stalls.wait()!.then(() => { released = true; });
    // The oldest commits, but the next (from t = 50) is past the limit too.
    t = 160;
    a.resolve();
    await tick();
    expect(released).toBe(false);
    // It fails: the one left is young enough.
    b.reject(new Error('disk full'));
    await tick();
    expect(released).toBe(true);
    expect(stalls.wait()).toBeUndefined();
    t = 300;
    expect(stalls.wait()).toBeInstanceOf(Promise);
    c.resolve();
    await tick();
    expect(stalls.wait()).toBeUndefined();
  });
});
