import { describe, expect, it } from 'vitest';
import { CallCounter } from './ask.js';
import { checkQuestions } from './cases.js';
import { diagnose, drift, evolveMetrics, lowestCases, quality } from './evolve.js';
import { roleModel } from './testing.js';
import { DEFAULT_THRESHOLDS, type Metric } from './types.js';

const metric = (field: string, weight = 0.5): Metric => ({ name: field.toUpperCase(), field, dimension: 'D', weight, description: `${field} desc`, positive: '+', negative: '-' });
const M = [metric('a'), metric('b'), metric('c')];

describe('score distributions', () => {
  it('flags too strict (mean <= 1.8), too lenient (>= 4.2) and weak (sd < 0.4 points) metrics', () => {
    // a: 1, 1, 2, 3 -> mean .1875 normalised, sd .239; b: 5, 5, 4, 4 -> .875, sd .144; c: 3, 3, 3, 4 -> .5625, sd .125.
    const scores = [{ a: 1, b: 5, c: 3 }, { a: 1, b: 5, c: 3 }, { a: 2, b: 4, c: 3 }, { a: 3, b: 4, c: 4 }];
    const stats = diagnose(M, scores, DEFAULT_THRESHOLDS);
    expect(stats.map(s => s.flags)).toEqual([['too-strict'], ['too-lenient'], []]);
    expect(stats[0]!.mean).toBeCloseTo(0.1875, 12);
    expect(stats[2]!.sd).toBeCloseTo(Math.sqrt(((3 * 0.0625 ** 2) + 0.1875 ** 2) / 3), 12);
    const weak = diagnose([metric('c')], [{ c: 3 }, { c: 3 }, { c: 3 }, { c: null }], DEFAULT_THRESHOLDS);
    expect(weak).toEqual([{ field: 'c', n: 3, mean: 0.5, sd: 0, flags: ['weak'] }]);
    expect(diagnose([metric('c')], [{ c: null }], DEFAULT_THRESHOLDS)).toEqual([{ field: 'c', n: 0, mean: null, sd: null, flags: [] }]);
  });

  it('quality is the mean over metrics of (centrality + capped spread) / 2', () => {
    expect(quality([{ field: 'a', n: 4, mean: 0.5, sd: 0.25, flags: [] }])).toBe(1);
    expect(quality([{ field: 'a', n: 4, mean: 1, sd: 0, flags: [] }, { field: 'b', n: 4, mean: 0.75, sd: 0.125, flags: [] }])).toBeCloseTo((0 + (0.5 + 0.5) / 2) / 2, 12);
    expect(quality([{ field: 'a', n: 1, mean: 0.5, sd: null, flags: [] }])).toBe(0);
  });

  it('drift is the mean absolute normalised change of anchor scores, over cells scored both times', () => {
    expect(drift([{ a: 1, b: 5, c: 3 }, { a: 2, b: 2, c: 2 }], [{ a: 5, b: 5, c: 3 }, { a: 2, b: null, c: 4 }], M)).toBeCloseTo((1 + 0 + 0 + 0 + 0.5) / 5, 12);
    expect(drift([{ a: null, b: null, c: null }], [{ a: 1, b: 1, c: 1 }], M)).toBeNull();
  });

  it('picks the lowest weighted cases, unscored ones never', () => {
    const cases = ['x', 'y', 'z'].map(id => ({ question: { id, persona: id, internal: id, user: id }, answer: id }));
    const low = lowestCases(cases, [{ a: 5, b: 5, c: 5 }, { a: null, b: null, c: null }, { a: 1, b: 3, c: 5 }], M, 2);
    expect(low.map(l => [l.case.question.id, l.score])).toEqual([['z', 0.5], ['x', 1]]);
  });
});

describe('metric evolution', () => {
  it('rewrites only the flagged metrics\' texts; names, fields, dimensions and weights stay', async () => {
    const generator = roleModel((_r, role, turn) => {
      expect(role).toBe('synthesis:evolve-metrics');
      return turn === 0
        ? '<json>{"metrics": [{"name": "Renamed", "description": "d", "positive": "p", "negative": "n"}]}</json>'
        : '<json>{"metrics": [{"name": "A", "description": "new a", "positive": "p", "negative": "n", "weight": 9, "dimension": "Other"}]}</json>';
    });
    const stats = diagnose(M, [{ a: 5, b: 2, c: 3 }, { a: 5, b: 4, c: 4 }], DEFAULT_THRESHOLDS);
    const out = await evolveMetrics({ generator, metrics: M, stats, attempts: 2, calls: new CallCounter() });
    expect(out).toEqual([{ ...M[0]!, description: 'new a', positive: 'p', negative: 'n' }, M[1], M[2]]);
    expect(generator.calls[0]!.messages[0]!.content).toContain('- A (D): mean 5.00, sd 0.00 on 1-5 over 2 answers; too lenient');
    expect(generator.calls[1]!.messages.at(-1)!.content).toContain('metrics[0].name "Renamed" is not one of the metrics to revise (A); names stay fixed; the metric "A" is missing');
    // Nothing flagged: no call.
    const none = roleModel(() => { throw new Error('no call expected'); });
    const calm = diagnose(M, [{ a: 2, b: 2, c: 2 }, { a: 4, b: 4, c: 4 }], DEFAULT_THRESHOLDS);
    expect(await evolveMetrics({ generator: none, metrics: M, stats: calm, attempts: 1, calls: new CallCounter() })).toBe(M);
  });

  it('checks generated questions: count, texts, an internal version that differs, distinct personas', () => {
    const q = (persona: string, internal = 'Explain in 50 words', user = 'Explain') => ({ persona, internal, user });
    expect(checkQuestions({ questions: [q('Ann'), q('Bo')] }, 2, 'r1-q')).toEqual({ ok: true, value: [
      { id: 'r1-q1', persona: 'Ann', internal: 'Explain in 50 words', user: 'Explain' }, { id: 'r1-q2', persona: 'Bo', internal: 'Explain in 50 words', user: 'Explain' },
    ] });
    expect(checkQuestions({ questions: [q('Ann'), q('ann', 'Same', 'Same'), q('', 'x', 'y')] }, 4, 'q')).toEqual({ ok: false, problems: [
      'expected 4 questions, got 3', 'questions[1]: internal must add the format constraints that user leaves out', 'questions[2].persona must be non-empty text', 'every question needs a different persona',
    ] });
  });
});
