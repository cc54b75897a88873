import { z } from 'zod';

const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/** Where an item came from: a dataset or file and the record key inside it. */
export const ItemSourceSchema = z.union([
  z.string().min(1),
  z.looseObject({
    dataset: z.string().min(1).optional().describe('Dataset name, e.g. BuNaMo'),
    file: z.string().min(1).optional().describe('File inside the dataset'),
    key: z.string().min(1).describe('Record key inside the file'),
  }),
]);

/**
 * One benchmark item (design.md, "Items"). Unknown fields are kept: a suite may carry its own
 * metadata, and rewriting a file must not lose it.
 */
export const ItemSchema = z
  .looseObject({
    id: z.string().regex(/^\S(.*\S)?$/s, 'a non-empty id without leading or trailing spaces').describe('Stable id, unique within a suite'),
    test: z.string().regex(/^[a-z][a-z0-9_]*$/, 'lower_snake_case test name').describe('Test name, e.g. grammar_forms'),
    language: z.string().min(2).describe('Language under test (BCP 47), e.g. ga, en'),
    input: z.record(z.string(), jsonValue).describe("Structured input the test's prompt template renders"),
    accepted: z.array(z.string().regex(/\S/, 'an accepted answer may not be empty')).optional().describe('Accepted answers (rule-marked tests)'),
    references: z.array(z.string().regex(/\S/, 'a reference may not be empty')).optional().describe('Reference translations (chrF-marked tests)'),
    source: ItemSourceSchema.describe('Dataset or file and record key'),
    licence: z.string().min(1).describe('Licence of the derived item, e.g. ODbL-1.0'),
    evidence: z.string().min(1).describe("Evidence label from the suite's methodology"),
    visibility: z.enum(['public', 'private']),
    contamination: z.enum(['private', 'public-source']),
    human_checked: z.boolean(),
    topic: z.string().optional(),
    level: z.string().optional().describe('CEFR level'),
    l1: z.string().optional().describe("Learner's first language"),
    notes: z.string().optional(),
  })
  .refine(
    i => (Array.isArray(i.accepted) && i.accepted.length > 0) || (Array.isArray(i.references) && i.references.length > 0),
    {
      message: 'an item needs a non-empty "accepted" or "references" list',
      path: ['accepted'],
      // Run even when other fields failed, so one pass reports every problem of a line (but not
      // on a line that is no object at all: that has its one error already).
      when: payload => payload.value !== null && typeof payload.value === 'object' && !Array.isArray(payload.value),
    },
  );

/** One benchmark item. */
export type Item = z.infer<typeof ItemSchema>;

/** An item with its version: the content hash of everything in it. */
export interface VersionedItem {
  item: Item;
  /** Content hash; changes whenever any field changes. */
  hash: string;
  /** File the item was read from, for error messages. */
  file?: string;
  line?: number;
}

/** Group keys reports break scores down by. */
export const GROUP_FIELDS = ['language', 'topic', 'level', 'evidence', 'l1'] as const;
export type GroupField = (typeof GROUP_FIELDS)[number];
