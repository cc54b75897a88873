import type { ChatMessage } from '../../core/index.js';
import type { Family, StudyItem, StudyObservation } from './schema.js';

/** Bumped whenever a family's wording changes (it is part of every trial's identity). */
export const PROMPTS_VERSION = '1';

/**
 * The request of one cell, by prompt family (Hardy et al. 2026): `base` asks for the number,
 * `cot` for "Reasoning: ... Rating: <number>", `rubric` adds the scale's level descriptions.
 */
export function ratingMessages(item: StudyItem, family: Family, observation: StudyObservation): ChatMessage[] {
  const { min, max } = item.scale;
  const system = `You are an expert rater. You rate one observation on one construct: ${item.construct}`;
  const task = `Observation:\n"""\n${observation.text}\n"""\n\nRate the observation on "${item.id}" (${item.construct}) on a scale from ${min} to ${max}.`;
  const answer: Record<Family, string> = {
    base: `Answer with the rating only: one whole number from ${min} to ${max}.`,
    cot: `First reason about the evidence, then rate. Answer exactly in this form:\nReasoning: <your reasoning>\nRating: <one whole number from ${min} to ${max}>`,
    rubric: `Use these level descriptions:\n${levelLines(item)}\nAnswer exactly in this form:\nRating: <one whole number from ${min} to ${max}>`,
  };
  return [{ role: 'system', content: system }, { role: 'user', content: `${task}\n\n${answer[family]}` }];
}

/** Every level of the scale, described or not, so a rater sees the whole range. */
function levelLines(item: StudyItem): string {
  const lines: string[] = [];
  for (let v = item.scale.min; v <= item.scale.max; v++) lines.push(`${v}: ${item.levels?.[String(v)] ?? '(no description)'}`);
  return lines.join('\n');
}
