import { z } from 'zod';
import { filePath } from '../../core/config/file-path.js';

/** Run kind of learning studies. */
export const LEARNING_RUN = 'learning';

const spec = z.string().min(1);
/** `all` slides, or a sample of k evenly spaced frames. */
const frames = z.union([z.literal('all'), z.number().int().min(1).max(60)], { error: 'expected all, or a number of frames from 1 to 60' });

/**
 * A learning study: units x generators (decks, and their error-injected variants) x learners
 * (with the ablations asked for) x repeats, and judge panels over every deck variant.
 */
export const LearningRunConfigSchema = z.strictObject({
  kind: z.literal(LEARNING_RUN),
  /** Unit ids, found in `unitPaths`. */
  units: z.array(z.string().min(1)).min(1, 'name at least one unit, e.g. --units nahuatl-verb-forms'),
  /** Unit files or folders; default the shipped data/units. */
  unitPaths: z.array(filePath()).optional(),
  /** `NAME=SPEC`: models or `baseline:blank-deck` / `baseline:outline`. */
  generators: z.array(spec).min(1, 'name at least one generator, e.g. --generator floor=baseline:outline'),
  /** `NAME=SPEC`: models or `baseline:examples` (answers from the examples alone). */
  learners: z.array(spec).min(1, 'name at least one learner, e.g. --learner floor=baseline:examples'),
  /** `NAME=SPEC`: the D1/D2 judge panel. */
  judges: z.array(spec).default([]),
  /** Aliases (of learners or judges) whose models accept images: they see slides as PNGs. */
  imageModels: z.array(z.string().min(1)).default([]),
  /** Learner and judge repeats. */
  repeats: z.number().int().min(1).max(100).default(1),
  /** Ablation: learners with and/or without the puzzle's examples in every test context. */
  puzzleContext: z.array(z.boolean({ error: 'expected true or false (on or off)' })).min(1).default([false]),
  /** Ablation: study all slides and/or a sample of k frames. */
  frames: z.array(frames).min(1).default(['all']),
  /** Error-injection families: each adds a corrupted variant of every deck. */
  inject: z.array(z.string().min(1)).default([]),
  seed: z.number().int().min(0).default(20261201),
  costCapUsd: z.number().min(0).optional(),
  prices: filePath().optional(),
  baseUrl: z.string().min(1).optional(),
  concurrency: z.number().int().min(1).default(4),
  maxAttempts: z.number().int().min(1).default(5),
  timeoutMs: z.number().int().min(1).optional(),
  retryErrors: z.boolean().default(false),
  /** The stored run this config continues (set in the config a run keeps); refused if the units now make another. */
  resume: z.string().min(1).optional(),
});

export type LearningRunConfig = z.input<typeof LearningRunConfigSchema>;
export type LearningRunSettings = z.output<typeof LearningRunConfigSchema>;
export type Frames = z.infer<typeof frames>;
