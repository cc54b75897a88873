import { describe, expect, it } from 'vitest';
import { parseOrdinal } from './ordinal.js';

const s17 = { min: 1, max: 7 };
const s13 = { min: 1, max: 3, levels: { low: 1, 'somewhat high': 2, high: 3 } };
const value = (text: string, scale = s17) => {
  const r = parseOrdinal(text, scale);
  return r.scored ? r.value : `unscored: ${r.reason}`;
};

describe('parseOrdinal: chain-of-thought answers', () => {
  it('reads the value after "Rating:" at the end of the reasoning', () => {
    expect(value('Reasoning: the teacher asks why twice and waits.\nRating: 6')).toBe(6);
    expect(parseOrdinal('Reasoning: ok.\nRating: 6', s17)).toEqual({ scored: true, value: 6, via: 'label' });
  });
  it('accepts markdown, "Score", "Final rating", "=" and trailing words', () => {
    expect(value('**Rating:** 5')).toBe(5);
    expect(value('Final rating - 2 (weak)')).toBe(2);
    expect(value('Score = 3.')).toBe(3);
    expect(value('Reasoning: fine. Rating: 4/7')).toBe(4);
    expect(value('Rating: four')).toBe(4);
    expect(value('Rating: somewhat high', s13)).toBe(2);
  });
  it('the same rating labelled twice is fine; two different ones are unscored', () => {
    expect(value('Rating: 3\n...\nRating: 3')).toBe(3);
    expect(value('Rating: 3\nOn reflection, Rating: 5')).toBe('unscored: conflicting labelled ratings 3 and 5');
  });
  it('a label with no rating after it is unscored, not read from the reasoning', () => {
    expect(value('Reasoning: a 5 would be generous.\nRating: unclear')).toMatch(/^unscored: the rating label is not followed by a rating/);
  });
  it('does not read "score" inside prose as a label', () => {
    expect(value('The student score went up by 3 points and the lesson was a 5')).toMatch(/^unscored/);
  });
});

describe('parseOrdinal: bare answers', () => {
  it('numbers, fractions of the same scale, "out of", words and level words', () => {
    expect(parseOrdinal(' 4 ', s17)).toEqual({ scored: true, value: 4, via: 'bare' });
    expect(value('4/7')).toBe(4);
    expect(value('4 out of 7')).toBe(4);
    expect(value('**5**')).toBe(5);
    expect(value('(2).')).toBe(2);
    expect(value('Seven')).toBe(7);
    expect(value('3.0')).toBe(3);
    expect(value('High', s13)).toBe(3);
  });
  it('a last line that is only a rating', () => {
    expect(parseOrdinal('The questions build on each other.\n\n5', s17)).toEqual({ scored: true, value: 5, via: 'last-line' });
  });
});

describe('parseOrdinal: never guesses', () => {
  it('off the scale, between levels, or on another scale is unscored with the reason', () => {
    expect(value('Rating: 9')).toBe('unscored: rating 9 is outside the scale 1-7');
    expect(value('0')).toBe('unscored: rating 0 is outside the scale 1-7');
    expect(value('3.5')).toBe('unscored: 3.5 is not a level of the scale 1-7');
    expect(value('4/5')).toBe('unscored: "4/5" is on a scale to 5, not to 7');
    expect(value('medium', s13)).toBe('unscored: no "Rating: <n>" label and the answer is not a bare rating');
  });
  it('empty answers and prose with numbers are unscored', () => {
    expect(value('   ')).toBe('unscored: empty answer');
    expect(value('I would say 4 or maybe 5.')).toBe('unscored: no "Rating: <n>" label and the answer is not a bare rating');
    expect(value('Step 1: read. Step 2: think.')).toMatch(/^unscored/);
  });
  it('an invalid last line is not rescued by the text above it', () => {
    expect(value('Maybe 4.\n12')).toBe('unscored: rating 12 is outside the scale 1-7');
  });
});
