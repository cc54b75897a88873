import type { Dimension } from '../run/plan.js';

/** Bumped when a judge prompt, a sub-dimension or how an answer is read changes. */
export const JUDGE_PROMPT_VERSION = 'judge-1';

/** The sub-dimensions of D1 (linguistic validity) and D2 (cognitive-pedagogical design), each rated 1-5. */
export const RUBRIC: Readonly<Record<Dimension, ReadonlyArray<{ key: string; question: string }>>> = {
  d1: [
    { key: 'rule_coverage', question: 'Rule coverage and correctness: does the deck teach every rule of the outline, and teach it correctly?' },
    { key: 'data_fidelity', question: 'Data fidelity: are the language data shown exactly as in the outline, with nothing invented or altered?' },
    { key: 'metalinguistic_accuracy', question: 'Metalinguistic accuracy: are grammatical terms and explanations used accurately?' },
    { key: 'no_answer_leakage', question: 'No answer leakage: does the deck avoid giving away the answers of the tests the outline describes (5 = nothing given away)?' },
    { key: 'appropriate_scope', question: 'Appropriate scope: does the deck stay within what the outline asks, neither too little nor beyond it?' },
  ],
  d2: [
    { key: 'sequencing', question: 'Sequencing: do the slides build from simple to complex in a sensible order?' },
    { key: 'cognitive_load', question: 'Cognitive load: is each slide focused, without overload or clutter?' },
    { key: 'worked_examples', question: 'Worked examples: are rules shown applied step by step to examples?' },
    { key: 'scaffolding', question: 'Scaffolding: does support fade as the learner is asked to do more?' },
    { key: 'text_picture_integration', question: 'Text-picture integration: do tables, diagrams and images carry the content together with the text?' },
    { key: 'practice_quality', question: 'Practice quality: are there exercises that practise the rules, with feedback?' },
  ],
};

export const DIMENSION_NAMES: Readonly<Record<Dimension, string>> = { d1: 'linguistic validity', d2: 'cognitive-pedagogical design' };
export const SCALE = { min: 1, max: 5 } as const;

/** Read a judge's answer: one JSON object with every sub-dimension as an integer 1-5 (and an optional `rationale`). */
export function readRatings(dimension: Dimension, text: string): { ok: true; ratings: Record<string, number>; rationale?: string } | { ok: false; problems: string[] } {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return { ok: false, problems: ['no JSON object in the answer'] };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return { ok: false, problems: [`the JSON object does not parse (${(error as Error).message})`] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problems: ['the answer is not a JSON object'] };
  const o = value as Record<string, unknown>;
  const problems: string[] = [];
  const ratings: Record<string, number> = {};
  for (const { key } of RUBRIC[dimension]) {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < SCALE.min || v > SCALE.max) problems.push(`"${key}" must be an integer from ${SCALE.min} to ${SCALE.max}${v === undefined ? ' (missing)' : `, got ${JSON.stringify(v)}`}`);
    else ratings[key] = v;
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, ratings, ...(typeof o.rationale === 'string' ? { rationale: o.rationale } : {}) };
}
