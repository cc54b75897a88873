import { parseOrdinal, type OrdinalScale } from './ordinal.js';
import type { RatingRow } from './table.js';

/** A rater's free-text answer for one cell of a rating study (what a stored Judgment holds). */
export interface RatingAnswer {
  observation: string;
  item: string;
  rater: string;
  prompt: string;
  repeat: string;
  text: string;
}

/**
 * Rating rows from free-text answers, for `validity run`: each answer goes through
 * {@link parseOrdinal} on its item's scale; an answer it cannot read becomes an unscored row that
 * keeps the reason and the text (extra.answer), so the table says what was lost and why.
 */
export function ratingsFromAnswers(answers: readonly RatingAnswer[], scales: ReadonlyMap<string, OrdinalScale>): RatingRow[] {
  return answers.map(a => {
    const scale = scales.get(a.item);
    const parsed = scale ? parseOrdinal(a.text, scale) : { scored: false as const, reason: `item "${a.item}" has no scale` };
    const base = { observation: a.observation, item: a.item, rater: a.rater, prompt: a.prompt, repeat: a.repeat };
    return parsed.scored
      ? { ...base, score: parsed.value }
      : { ...base, score: null, unscoredReason: parsed.reason, extra: { answer: a.text } };
  });
}
