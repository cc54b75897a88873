import { wordsOf } from '../units/leak.js';
import type { Unit, UnitItem } from '../units/schema.js';

/** Spec of the learner baseline that answers from the puzzle's examples alone. */
export const EXAMPLES_LEARNER = 'baseline:examples';

/**
 * The floor of every learner table: for an item, the example sharing the most words with its
 * prompt, answered by that example's other side (its English when the prompt shares its source
 * words, else its source). It reads only the examples and the prompt, never an answer.
 */
export function answerFromExamples(unit: Unit, item: UnitItem): { answer: string | null; reason?: string } {
  const prompt = new Set(wordsOf(item.prompt));
  let best: { score: number; answer: string } | undefined;
  for (const e of unit.examples) {
    const source = wordsOf(e.source).filter(w => prompt.has(w)).length;
    const target = wordsOf(e.target).filter(w => prompt.has(w)).length;
    const score = Math.max(source, target);
    if (score > 0 && (!best || score > best.score)) best = { score, answer: source >= target ? e.target : e.source };
  }
  return best ? { answer: best.answer } : { answer: null, reason: 'no example shares a word with the prompt' };
}
