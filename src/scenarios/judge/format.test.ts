import { describe, expect, it } from 'vitest';
import type { FormatField } from '../types.js';
import { checkAnswer, extractJson, formatJsonSchema, promptModeInstruction } from './format.js';

const format: FormatField[] = [
  { field: 'accuracy', type: 'float', description: 'Accuracy', max: 5 },
  { field: 'steps', type: 'int', min: 1, max: 3 },
  { field: 'gave_answer', type: 'bool' },
  { field: 'guidance', type: 'dict', items: [{ field: 'score', type: 'float', max: 10 }, { field: 'reason', type: 'str' }] },
];

describe('formatJsonSchema', () => {
  it('maps ELMES types to JSON Schema with bounds, nesting, required fields and no extras', () => {
    expect(formatJsonSchema(format)).toEqual({
      type: 'object',
      properties: {
        accuracy: { description: 'Accuracy', type: 'number', maximum: 5 },
        steps: { type: 'integer', minimum: 1, maximum: 3 },
        gave_answer: { type: 'boolean' },
        guidance: {
          type: 'object',
          properties: { score: { type: 'number', maximum: 10 }, reason: { type: 'string' } },
          required: ['score', 'reason'],
          additionalProperties: false,
        },
      },
      required: ['accuracy', 'steps', 'gave_answer', 'guidance'],
      additionalProperties: false,
    });
  });
});

describe('checkAnswer', () => {
  it('accepts a fitting answer and converts numeric and boolean strings', () => {
    const r = checkAnswer({ accuracy: '4.5', steps: 2, gave_answer: 'false', guidance: { score: 7, reason: 'ok' }, extra: 1 }, format);
    expect(r).toEqual({ ok: true, value: { accuracy: 4.5, steps: 2, gave_answer: false, guidance: { score: 7, reason: 'ok' }, extra: 1 } });
  });
  it('reports every problem with its dot-path', () => {
    const r = checkAnswer({ accuracy: 6, steps: 2.5, gave_answer: 'maybe', guidance: { score: 'high' } }, format);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      'accuracy must be at most 5, got 6',
      'steps must be a whole number, got 2.5',
      'gave_answer must be true or false',
      'guidance.score must be a number',
      'guidance.reason is missing',
    ]);
  });
  it('enforces min and the scale as well as max', () => {
    expect(checkAnswer({ s: 0 }, [{ field: 's', type: 'int', min: 1, max: 5 }]).ok).toBe(false);
    expect(checkAnswer({ s: 7 }, [{ field: 's', type: 'int', scale: { min: 0, max: 5 } }]).ok).toBe(false);
    expect(checkAnswer([1], format)).toEqual({ ok: false, problems: ['the answer must be a JSON object'] });
  });
});

describe('extractJson', () => {
  it('takes the last block between the markers, after any reasoning', () => {
    expect(extractJson('I think <json>{"a": 1}</json> no wait <JSON>{"a": 2}</JSON>')).toEqual({ ok: true, value: { a: 2 } });
  });
  it('falls back to a json fence, then to the whole text', () => {
    expect(extractJson('Here:\n```json\n{"a": 3}\n```')).toEqual({ ok: true, value: { a: 3 } });
    expect(extractJson(' {"a": 4} ')).toEqual({ ok: true, value: { a: 4 } });
  });
  it('never takes the draft inside a reasoning block; the final answer wins', () => {
    expect(extractJson('<think>draft <json>{"a":1}</json></think> final ```json {"a":2}```')).toEqual({ ok: true, value: { a: 2 } });
    expect(extractJson('<thinking>maybe <json>{"a":1}</json></thinking><json>{"a":3}</json>')).toEqual({ ok: true, value: { a: 3 } });
    expect(extractJson('<reasoning>{"a":1}</reasoning> no JSON here')).toEqual({ ok: false, problem: expect.any(String) });
  });
  it('reads a bare object after a closed <think> block (R1/QwQ-style output)', () => {
    expect(extractJson('<think>Let me weigh this… {"a": 0} perhaps</think>\n{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('reasoning without the opening tag {"a":0}</think>\n\nScores: {"a":5}')).toEqual({ ok: true, value: { a: 5 } });
  });
  it('a leading <think> that never closes is all reasoning: no answer', () => {
    const r = extractJson('<think>I would say <json>{"a":1}</json> but let me');
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.problem).toContain('all reasoning');
  });
  it('prefers the last well-formed candidate; a malformed last block falls back to an earlier one', () => {
    expect(extractJson('<json>{"a":1}</json> then <json>{"a":2,}</json>')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('first {"a":1} then {"a":2, "b": "}"}')).toEqual({ ok: true, value: { a: 2, b: '}' } });
  });
  it('says what to do when there is no JSON', () => {
    expect(extractJson('The tutor was great, 5/5.')).toEqual({ ok: false, problem: expect.stringContaining('between <json> and </json>') });
  });
  it('the prompt-mode instruction shows the schema and an example that fits the format', () => {
    const text = promptModeInstruction(format);
    const example = extractJson(text.split('For example: ')[1]!);
    expect(example.ok && checkAnswer(example.value, format).ok).toBe(true);
    expect(text).toContain(JSON.stringify(formatJsonSchema(format)));
  });
});
