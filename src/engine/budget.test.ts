import { describe, expect, it } from 'vitest';
import { createBudget } from './budget.js';

describe('createBudget', () => {
  it('admits calls while spent plus reservations fit, and refuses once nothing in flight could free room', async () => {
    const b = createBudget(0.01, 0.004);
    expect(await b.reserve(0.003)).toBe(true);
    b.settle(0.003, 0.003);
    expect(b.spentUsd).toBeCloseTo(0.007, 12);
    expect(await b.reserve(0.004)).toBe(false);
    expect(await b.reserve(0.002)).toBe(true);
  });

  it('waits for a call in flight instead of refusing, and goes on when its real cost was lower', async () => {
    const b = createBudget(0.01);
    expect(await b.reserve(0.006)).toBe(true);
    let second: boolean | undefined;
    const pending = b.reserve(0.006).then(r => (second = r));
    await Promise.resolve();
    expect(second).toBeUndefined();
    b.settle(0.006, 0.001);
    await pending;
    expect(second).toBe(true);
  });

  it('has no cap without one, and cancel() releases waiters with false', async () => {
    expect(await createBudget(undefined).reserve(1e9)).toBe(true);
    const b = createBudget(0.01);
    await b.reserve(0.009);
    const pending = b.reserve(0.009);
    b.cancel();
    expect(await pending).toBe(false);
  });
});
