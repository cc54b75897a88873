import { expect, it } from 'vitest';
import { loopTurns } from './loop-turns.js';

it('asks for a turn only once the loop was held long enough, shares it, and starts counting again after it', async () => {
  let clock = 0;
  const turns = loopTurns(10, () => clock);
  clock = 9;
  expect(turns.due()).toBeUndefined();
  clock = 10;
  const first = turns.due();
  expect(first).toBeInstanceOf(Promise);
  // Every worker that asks meanwhile waits on the same turn.
  expect(turns.due()).toBe(first);
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  // A timer due now runs before the turn resolves: the turn is a real pass of the event loop.
  await new Promise(resolve => setTimeout(resolve, 2));
  await first;
  expect(timerRan).toBe(true);
  clock = 15;
  expect(turns.due()).toBeUndefined();
  clock = 20;
  expect(turns.due()).not.toBe(first);
});
