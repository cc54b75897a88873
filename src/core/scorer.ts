import type { Item } from './item.js';
import type { JsonObject } from './json.js';
import type { Trial } from './trial.js';

/** A scorer as recorded with every score: enough to rebuild it and score again. */
export interface ScorerRef {
  name: string;
  /** Bumped whenever the scorer could give a different value for the same input. */
  version: string;
  args: JsonObject;
}

/** What a scorer reads: the item and the stored outputs of a finished trial. Never a live call. */
export interface ScoreInput {
  item: Item;
  trial: Trial;
  /** Text of each step's answer, in order. */
  outputs: string[];
}

/**
 * A score in [0, 1], or `null` when the trial could not be scored (kept apart from low scores,
 * excluded from means; judge-validity statistics depend on this).
 */
export interface ScoreResult {
  value: number | null;
  /** Why, in a few words; always set for `null` and for 0. */
  reason?: string;
  details?: JsonObject;
}

/** A registered scorer. */
export interface Scorer {
  readonly ref: ScorerRef;
  score(input: ScoreInput): ScoreResult | Promise<ScoreResult>;
}

/** A stored score. */
export interface Score extends ScoreResult {
  runId: string;
  trialId: string;
  scorer: ScorerRef;
}
