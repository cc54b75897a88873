import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadUnits } from '../units/index.js';
import { markAnswer, markerRef } from './mark.js';

const abma = loadUnits([fileURLToPath(new URL('../../../data/units/abma-serial-verbs.yaml', import.meta.url))])[0]!.unit;
// "He runs here." with accepted [He runs here., He runs here, She runs here., He runs over here.]
const item = abma.source_items[1]!;

describe('markAnswer', () => {
  it('accepts any accepted alternative after the suites normalisation (case, spaces, apostrophes)', () => {
    expect(item.answer).toBe('He runs here.');
    expect(markAnswer(item, { type: 'answer', text: '  he   RUNS here ' })).toEqual({ status: 'right', acceptedIndex: 1, normalizedAnswer: 'he runs here' });
    expect(markAnswer(item, { type: 'answer', text: 'She runs here.' })).toMatchObject({ status: 'right', acceptedIndex: 2 });
    expect(markAnswer(item, { type: 'answer', text: 'He walks here.' })).toEqual({ status: 'wrong', reason: 'no accepted answer matched', normalizedAnswer: 'he walks here.' });
  });

  it('falls back to the answer when an item lists no alternatives', () => {
    expect(markAnswer({ prompt: 'p', answer: 'Ka’a' }, { type: 'answer', text: "ka'a" })).toMatchObject({ status: 'right', acceptedIndex: 0 });
    expect(markAnswer({ prompt: 'p', answer: 'Ka’a' }, { type: 'answer', text: 'kaa' })).toMatchObject({ status: 'wrong' });
  });

  it('marks an unparseable or empty reply wrong with its reason, and a failed call as a failure, not wrong', () => {
    expect(markAnswer(item, { type: 'unparseable', reason: 'no "answers" list in the reply' })).toEqual({ status: 'wrong', reason: 'unparseable: no "answers" list in the reply' });
    expect(markAnswer(item, { type: 'answer', text: '   ' })).toEqual({ status: 'wrong', reason: 'empty answer', normalizedAnswer: '' });
    expect(markAnswer(item, { type: 'failed', reason: 'HTTP 503' })).toEqual({ status: 'failed', reason: 'HTTP 503' });
  });

  it('applies and records the normalisation options it was given', () => {
    expect(markAnswer({ prompt: 'p', answer: 'He runs' }, { type: 'answer', text: 'He runs.' }, { stripTrailingFullStop: true }).status).toBe('right');
    expect(markAnswer({ prompt: 'p', answer: 'He runs' }, { type: 'answer', text: 'He runs.' }).status).toBe('wrong');
    expect(markerRef({ stripTrailingFullStop: true })).toEqual({ name: 'learning-exact', version: '1', args: { stripTrailingFullStop: true } });
  });
});
