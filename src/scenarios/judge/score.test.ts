import { describe, expect, it } from 'vitest';
import type { Judgment } from '../../core/judgment.js';
import type { StoredDialogue } from '../dialogue.js';
import type { Evaluation, FormatField } from '../types.js';
import { panelScore } from './index.js';
import { aggregate, scoredFields, weightedScore } from './score.js';

const rubric: FormatField[] = [
  { field: 'method', type: 'int', min: 1, max: 5, dimension: 'Teaching method professionalism', weight: 0.4 },
  { field: 'person', type: 'int', min: 1, max: 5, dimension: 'Personalisation', weight: 0.3 },
  { field: 'creative', type: 'float', scale: { min: 0, max: 10 }, dimension: 'Creativity stimulation', weight: 0.2 },
  { field: 'values', type: 'bool', dimension: 'Values integration', weight: 0.1 },
  { field: 'reason', type: 'str' },
];

describe('scoredFields', () => {
  it('keeps weighted fields with their scales and normalises the weights to sum 1', () => {
    const fields = scoredFields([{ field: 'a', type: 'int', max: 4, weight: 3 }, { field: 'b', type: 'int', max: 4, weight: 1 }, { field: 'c', type: 'int', max: 4 }]);
    expect(fields.map(f => [f.field, f.weight, f.scale])).toEqual([['a', 0.75, { min: 0, max: 4 }], ['b', 0.25, { min: 0, max: 4 }]]);
  });
  it('with no weights, weighs every field with a scale equally; a dict scores through its score item', () => {
    const fields = scoredFields([
      { field: 'accuracy', type: 'float' },
      { field: 'guidance', type: 'dict', items: [{ field: 'score', type: 'int', min: 1, max: 5 }, { field: 'reason', type: 'str' }] },
      { field: 'ok', type: 'bool' },
    ]);
    expect(fields.map(f => [f.path.join('.'), f.weight, f.dimension])).toEqual([['guidance.score', 0.5, 'guidance'], ['ok', 0.5, 'ok']]);
  });
});

describe('weightedScore', () => {
  it('is sum_i w_i * s_i with s_i normalised by the scale, and a weighted mean per dimension', () => {
    const scored = scoredFields(rubric);
    const w = weightedScore(new Map<string, number | boolean>([['method', 5], ['person', 3], ['creative', 2.5], ['values', false]]), scored)!;
    // s = 1, 0.5, 0.25, 0 with w = 0.4, 0.3, 0.2, 0.1
    expect(w.score).toBeCloseTo(0.4 * 1 + 0.3 * 0.5 + 0.2 * 0.25 + 0.1 * 0, 12);
    expect(w.normalised).toEqual({ method: 1, person: 0.5, creative: 0.25, values: 0 });
    expect(w.dimensions).toEqual({ 'Teaching method professionalism': 1, Personalisation: 0.5, 'Creativity stimulation': 0.25, 'Values integration': 0 });
  });
  it('averages fields of the same dimension by weight', () => {
    const scored = scoredFields([
      { field: 'a', type: 'int', max: 4, dimension: 'D', weight: 3 },
      { field: 'b', type: 'int', max: 4, dimension: 'D', weight: 1 },
    ]);
    expect(weightedScore(new Map([['a', 4], ['b', 0]]), scored)!.dimensions).toEqual({ D: 0.75 });
  });
  it('is undefined without scored fields or with a value missing', () => {
    expect(weightedScore(new Map(), [])).toBeUndefined();
    expect(weightedScore(new Map([['method', 5]]), scoredFields(rubric))).toBeUndefined();
  });
});

describe('aggregate', () => {
  it('mean and median (even counts average the middle pair)', () => {
    expect(aggregate([1, 2, 6], 'mean')).toBe(3);
    expect(aggregate([5, 1, 3], 'median')).toBe(3);
    expect(aggregate([4, 1, 3, 2], 'median')).toBe(2.5);
  });
  it('majority takes the most frequent value; a tie goes to the lower median of the tied values', () => {
    expect(aggregate([4, 4, 2, 5], 'majority')).toBe(4);
    expect(aggregate([1, 5, 3], 'majority')).toBe(3);
    expect(aggregate([2, 2, 5, 5], 'majority')).toBe(2);
    expect(() => aggregate([], 'mean')).toThrow(RangeError);
  });
});

describe('panelScore', () => {
  const ev: Evaluation = {
    name: 'e', judges: ['a', 'b', 'c'], aggregation: 'median', repeats: 2, formatMode: 'prompt', formatRetries: 0,
    prompt: [], format: rubric, scored: scoredFields(rubric), anchors: [], version: 'v1',
  };
  const dialogue = { trial: { id: 't1', runId: 'r' }, meta: { status: 'capped' } } as unknown as StoredDialogue;
  const judgment = (judge: string, repeat: number, fields: Record<string, unknown> | undefined): Judgment => ({
    specVersion: 'paideia.judgment.v1', runId: 'r', trialId: `j-${judge}-${repeat}`, targetTrialId: 't1', rater: { alias: judge, spec: `openai:${judge}` },
    promptVariant: 'v1', repeat, fields: (fields ?? {}) as never, value: null, callSeq: null,
    producer: { name: 'scenario-judge', version: 'v1', args: {} }, ...(fields ? {} : { raw: 'nonsense', details: { unscored: true } }),
  });

  it('combines repeats per judge, then judges, by the aggregation; keeps each judge and counts the unscored', () => {
    const s = panelScore(ev, dialogue, [
      judgment('a', 0, { method: 5, person: 5, creative: 10, values: true, reason: '' }),
      judgment('a', 1, { method: 3, person: 5, creative: 10, values: true, reason: '' }),
      judgment('b', 0, { method: 2, person: 1, creative: 0, values: false, reason: '' }),
      judgment('b', 1, undefined),
      judgment('c', 0, { method: 1, person: 3, creative: 5, values: true, reason: '' }),
      judgment('c', 1, { method: 1, person: 3, creative: 5, values: true, reason: '' }),
    ]);
    // method: a = median(5, 3) = 4, b = 2, c = 1 -> median 2; person: 5, 1, 3 -> 3; creative: 10, 0, 5 -> 5; values: 1, 0, 1 -> 1
    expect(s.details?.fields).toEqual({ method: 2, person: 3, creative: 5, values: 1 });
    expect(s.value).toBeCloseTo(0.4 * 0.25 + 0.3 * 0.5 + 0.2 * 0.5 + 0.1 * 1, 12);
    expect(s.details).toMatchObject({ n: 5, unscored: 1, dialogueStatus: 'capped' });
    expect((s.details?.judges as Record<string, { fields: Record<string, number> }>).a!.fields.method).toBe(4);
    expect(s.scorer).toEqual({ name: 'judge:e', version: 'v1', args: { judges: ['a', 'b', 'c'], aggregation: 'median', repeats: 2 } });
  });

  it('is unscored (null, never 0) when no judge answer fit', () => {
    const s = panelScore(ev, dialogue, [judgment('a', 0, undefined)]);
    expect(s.value).toBeNull();
    expect(s.reason).toMatch(/no judge answer fit/);
  });
});
