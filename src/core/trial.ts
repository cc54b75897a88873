/**
 * One planned unit of work: an item version asked of one model with one prompt version, once.
 * Its id is a content hash, so the same plan always yields the same ids and a re-run finds its
 * finished trials.
 */
export interface Trial {
  /** Content hash of (itemHash, modelSpec, test, promptVersion, repeat, seed, params). */
  id: string;
  runId: string;
  /** Position in the run's deterministic order. */
  index: number;
  itemId: string;
  /** Item version (content hash). */
  itemHash: string;
  test: string;
  /** Name the model goes by in the run's tables. */
  modelAlias: string;
  /** Canonical `provider:model`. */
  modelSpec: string;
  /** Prompt template version of the test (bumped when the wording changes). */
  promptVersion: string;
  /** 0-based repeat index. */
  repeat: number;
  /** Seed passed to the model and to seeded baselines. */
  seed: number;
  /**
   * Step kind that runs it (`item`, `dialogue`, `scenario-judge`, ...): the run kind maps it to
   * a StepKind. Absent on trials stored before kinds existed (they are item trials).
   */
  kind?: string;
  /** Prompt variant (design.md: item x model x prompt variant x repeat); `default` when there is one. */
  variant?: string;
  /** For judge trials: the trial they judge. */
  target?: string;
}

/** Where a trial stands: stored with its last call, so a resume reads it without replaying calls. */
export type TrialStatus = 'pending' | 'done' | 'failed';
