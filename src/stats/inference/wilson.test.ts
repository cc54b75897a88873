import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson.js';

describe('wilsonInterval at the ends', () => {
  it('is exactly 0 below with no successes and exactly 1 above with no failures', () => {
    expect(wilsonInterval(0, 9, 0.99).low).toBe(0);
    expect(wilsonInterval(9, 9, 0.99).high).toBe(1);
    // and a value in between against the closed form: 3 of 10, 95%
    const r = wilsonInterval(3, 10);
    expect(r.low).toBeCloseTo(0.10779126740630087, 12);
    expect(r.high).toBeCloseTo(0.6032218525388546, 12);
  });
});
