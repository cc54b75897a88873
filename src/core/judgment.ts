import type { JsonObject } from './json.js';
import type { ScorerRef } from './scorer.js';

/** A field's declared scale: judged values are read on it, and rescaled to [0, 1] by it. */
export interface FieldScale {
  min: number;
  max: number;
}

/**
 * One rater's judgment of one target, once: the record judge-validity studies read from any
 * capability (tutor explanations, scenario rubrics, deck ratings). It points at the stored call
 * its answer came from and at what produced it, so it can be re-derived without a model.
 */
export interface Judgment {
  readonly specVersion: 'paideia.judgment.v1';
  runId: string;
  /** The judge trial that made it. */
  trialId: string;
  /** The judged trial (an item trial or a dialogue). */
  targetTrialId: string;
  /** Who rated: the model's alias in the run and its canonical `provider:model`. */
  rater: { alias: string; spec: string };
  /** Prompt variant of the judge (an evaluation's version, a study's prompt family). */
  promptVariant: string;
  /** 0-based repeat of the same judgment. */
  repeat: number;
  /** Field values as the judge gave them, on their declared scales. */
  fields: JsonObject;
  /** Declared scales of numeric fields, by field path. */
  scales?: Record<string, FieldScale>;
  /** The judgment's value (an ordinal, a weighted score, 1/0 for pass/fail), or null when unscored. */
  value: number | null;
  /** Why it is unscored, or a short reason the judge gave. */
  reason?: string;
  /**
   * Sequence number of the stored call whose answer this is (the last format retry). Steps write
   * null and the store fills in the judge trial's newest stored call as it writes the judgment (a
   * call's number exists only once it is stored); null when the trial stored no call.
   */
  callSeq: number | null;
  /** What produced it from the call: rebuilt by name to re-derive it. */
  producer: ScorerRef;
  /** The answer text it was read from. */
  raw?: string;
  /** What its producer adds (attempts made, normalised field values, dimensions). */
  details?: JsonObject;
}
