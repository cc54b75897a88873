import { expect, it } from 'vitest';
import { stepCosts } from './step-costs.js';

it('adds step costs in the order their newest calls were stored, whatever order they were read in', () => {
  const c = stepCosts();
  // Read by trial: seq 3 first. Floating-point addition is not associative, so only seq order gives the stored sums.
  c.add(3, -1e16, { model: 'a' });
  c.add(1, 1e16, { model: 'a' });
  c.add(2, 1, { model: 'a' });
  c.add(4, 0.5, { judge: true });
  c.add(5, 0.25, undefined);
  c.add(6, 2, { model: 'b' });
  const s = c.sorted();
  // seq order: (1e16 + 1) - 1e16 = 0 (1 is lost), where read order would give (-1e16 + 1e16) + 1 = 1.
  expect(s.byModel()).toEqual(new Map([['a', 0], ['b', 2]]));
  expect(s.judges()).toBe(0.5);
  expect(s.total(() => false)).toBe(((((1e16 + 1) - 1e16) + 0.5) + 0.25) + 2);
  // A model left out of the total (unpriced) adds nothing; judges and stray steps still count.
  expect(s.total(m => m === 'b')).toBe(0.75);
});
