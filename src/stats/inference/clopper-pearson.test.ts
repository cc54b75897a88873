import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clopperPearsonInterval } from './clopper-pearson.js';
import { StatsInputError } from './errors.js';

interface Case { successes: number; n: number; level: number; low: number; high: number }
const fixture = JSON.parse(readFileSync(new URL('./__fixtures__/clopper_pearson.json', import.meta.url), 'utf8')) as { cases: Case[] };

const close = (actual: number, expected: number) => Math.abs(actual - expected) <= 1e-9 * Math.max(1e-3, Math.abs(expected));

describe('clopperPearsonInterval against scipy binomtest(...).proportion_ci(method="exact")', () => {
  it.each(fixture.cases)('$successes of $n at level $level', c => {
    const r = clopperPearsonInterval(c.successes, c.n, c.level);
    expect(close(r.low, c.low), `low ${r.low} vs ${c.low}`).toBe(true);
    expect(close(r.high, c.high), `high ${r.high} vs ${c.high}`).toBe(true);
    expect(r.estimate).toBe(c.successes / c.n);
  });

  it("gives Teanga Bench's 2 of 30 flagged items as 0.8% to 22.1%", () => {
    const r = clopperPearsonInterval(2, 30);
    expect([(r.low * 100).toFixed(1), (r.high * 100).toFixed(1)]).toEqual(['0.8', '22.1']);
  });

  it('refuses what is not a count', () => {
    expect(() => clopperPearsonInterval(3, 2)).toThrow(StatsInputError);
    expect(() => clopperPearsonInterval(1.5, 4)).toThrow(StatsInputError);
    expect(() => clopperPearsonInterval(0, 0)).toThrow(StatsInputError);
    expect(() => clopperPearsonInterval(1, 4, 1)).toThrow(StatsInputError);
  });
});
