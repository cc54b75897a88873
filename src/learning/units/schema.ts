import { z } from 'zod';

/** The kinds of task a unit teaches; the deck generator and the learner prompts both read it. */
export const TASK_TYPES = ['paradigm_completion', 'translation', 'morphophonology', 'matching', 'other'] as const;
export const DIFFICULTY_BANDS = ['basic', 'intermediate', 'advanced'] as const;

const text = z.string().trim().min(1, 'must not be empty');
const score = z.number().int().min(1).max(3);

/** A test item: what the learner is asked and the answers that count as right. */
export const unitItemSchema = z.strictObject({
  prompt: text,
  answer: text,
  /** Every answer that counts; when given it must contain `answer`. */
  accepted: z.array(text).min(1).optional(),
});

/** The four rubric scores (1 low - 3 high) that place a unit in its band. */
export const rubricSchema = z.strictObject({
  rule_complexity: score,
  exception_density: score,
  transfer_abstraction: score,
  distractor_strength: score,
});

export const unitSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by "-", e.g. "dyirbal-noun-classes"'),
  title: text,
  language: text,
  task_type: z.enum(TASK_TYPES),
  difficulty: z.strictObject({ band: z.enum(DIFFICULTY_BANDS), rubric: rubricSchema }),
  knowledge_point: text,
  /** Counted by the validator (2-6) so the message can say what to do. */
  rules: z.array(text),
  terms: z.array(z.strictObject({ term: text, definition: text })),
  exceptions: z.array(text),
  examples: z.array(z.strictObject({ source: text, target: text, note: text.optional() })).min(2),
  source_items: z.array(unitItemSchema).min(1),
  near_transfer: z.array(unitItemSchema).min(1),
  far_transfer: z.array(unitItemSchema).min(1),
  /** How transfer is tested, in words: this is what the outline shows instead of the items. */
  transfer_design: z.strictObject({ near: text, far: text }),
  /** Aids the deck should carry (e.g. "table of noun-class markers"); the D3 `visualAids` share counts them. */
  visual_aids: z.array(z.strictObject({ kind: z.enum(['table', 'diagram', 'image', 'chart']), description: text })).min(1),
  provenance: z.strictObject({
    puzzle: text,
    origin: text,
    credit: z.string().trim().min(1, 'missing credit: name the olympiad or author who made the puzzle'),
    licence: text,
  }),
  checking: z.strictObject({ human_checked: z.boolean(), notes: text }),
});

export type Unit = z.infer<typeof unitSchema>;
export type UnitItem = z.infer<typeof unitItemSchema>;
export type DifficultyBand = (typeof DIFFICULTY_BANDS)[number];
export type ItemSet = 'source_items' | 'near_transfer' | 'far_transfer';
export const ITEM_SETS: ReadonlyArray<ItemSet> = ['source_items', 'near_transfer', 'far_transfer'];

/** The band a rubric total gives: 4-6 basic, 7-9 intermediate, 10-12 advanced. */
export function bandOf(rubric: Unit['difficulty']['rubric']): DifficultyBand {
  const total = rubric.rule_complexity + rubric.exception_density + rubric.transfer_abstraction + rubric.distractor_strength;
  return total <= 6 ? 'basic' : total <= 9 ? 'intermediate' : 'advanced';
}
