import { z } from 'zod';

/** The prompt families of a rating study (design.md, "Judge validity"). */
export const FAMILIES = ['base', 'cot', 'rubric'] as const;
export type Family = (typeof FAMILIES)[number];

const Id = z.string().trim().min(1).max(200).regex(/^[^\s,]+$/, 'an id has no spaces or commas');

const ObservationSchema = z.strictObject({
  id: Id,
  /** What the rater reads: a transcript segment, a dialogue, an explanation. */
  text: z.string().min(1),
  /** The unit it belongs to (a teacher, a classroom); default itself. */
  unit: Id.optional(),
});

const ItemSchema = z.strictObject({
  id: Id,
  /** The construct in a sentence, shown to every family. */
  construct: z.string().min(1),
  scale: z.strictObject({ min: z.number().int(), max: z.number().int() }).refine(s => s.max > s.min, { message: 'max must be above min' }),
  /** What each level means, by level (`1: "No uptake"`); the rubric family shows them. */
  levels: z.record(z.string().regex(/^-?\d+$/, 'a level is a whole number'), z.string().min(1)).optional(),
});

/** A rating study file (YAML): observations x items x prompt families x raters x repeats. */
export const StudyFileSchema = z.strictObject({
  name: Id,
  description: z.string().optional(),
  /** Inline observations, a CSV (id,text[,unit]) or JSONL file, or the judged targets of a stored run. */
  observations: z.union([
    z.array(ObservationSchema).min(1),
    z.strictObject({ file: z.string().min(1) }),
    z.strictObject({ run: z.string().min(1) }),
  ]).optional(),
  items: z.array(ItemSchema).min(1),
  families: z.array(z.enum(FAMILIES)).min(1).default([...FAMILIES]),
  /** Rater models by alias: `a: openai:gpt-4.1-mini`. */
  raters: z.record(Id, z.string().min(1)).refine(r => Object.keys(r).length > 0, { message: 'name at least one rater, e.g. a: openai:gpt-4.1-mini' }),
  repeats: z.number().int().min(1).max(100).default(1),
  seed: z.number().int().min(0).default(20260301),
  /** Sampling settings sent with every rating request. */
  params: z.strictObject({ temperature: z.number().min(0).optional(), max_tokens: z.number().int().min(1).optional() }).default({}),
});

export type StudyFile = z.output<typeof StudyFileSchema>;
export type StudyItem = StudyFile['items'][number];

/** One observation as a study holds it, wherever it came from. */
export interface StudyObservation {
  id: string;
  text: string;
  unit?: string;
}
