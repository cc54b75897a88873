import { describe, expect, it } from 'vitest';
import { ratingsFromAnswers } from './from-answers.js';

describe('ratingsFromAnswers', () => {
  it('parses each answer on its item scale and keeps unreadable ones unscored with reason and text', () => {
    const cell = { observation: 'o1', rater: 'm', prompt: 'cot', repeat: '1' };
    const rows = ratingsFromAnswers([
      { ...cell, item: 'q', text: 'Reasoning: asks why.\nRating: 3' },
      { ...cell, item: 'q', text: 'Rating: 5' },
      { ...cell, item: 'z', text: '2' },
    ], new Map([['q', { min: 1, max: 3 }]]));
    expect(rows).toEqual([
      { ...cell, item: 'q', score: 3 },
      { ...cell, item: 'q', score: null, unscoredReason: 'rating 5 is outside the scale 1-3', extra: { answer: 'Rating: 5' } },
      { ...cell, item: 'z', score: null, unscoredReason: 'item "z" has no scale', extra: { answer: '2' } },
    ]);
  });
});
