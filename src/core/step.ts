import type { ChatRequest, ChatResult } from './chat-model.js';
import type { JsonValue } from './json.js';
import type { Judgment } from './judgment.js';
import type { Score } from './scorer.js';
import type { Trial } from './trial.js';

/** A trial's stored steps as a step reads them: the answer of each step so far, in order. */
export interface StepHistory {
  trial: Trial;
  /** Answers of the steps made so far (replayed from the store or just returned). */
  results: ReadonlyArray<ChatResult>;
}

/** What a step is given: its own trial and history, and the finished trial it judges, if any. */
export interface StepInput extends StepHistory {
  /** The judged trial, for kinds with `judgesTarget` (the engine runs them once it is done). */
  target?: StepHistory;
}

/** One model call a step asks for. */
export interface StepCall {
  type: 'call';
  /** Alias of the model to ask, as the run's models are named. */
  model: string;
  request: ChatRequest;
  /**
   * What makes this call distinct from an identical request beyond the request itself (a repeat
   * of a stochastic step: a dialogue's or a judge's repeat). Part of the cache key; omitted when
   * identical requests may share one answer.
   */
  distinct?: JsonValue;
}

/** What a finished trial produced; the engine stores it with the trial's last call. */
export interface StepOutcome {
  type: 'done';
  scores?: Score[];
  judgments?: Judgment[];
  /** Namespaced JSON results (a dialogue's turns and end, a deck's metrics). */
  artifacts?: Array<{ kind: string; key: string; value: JsonValue }>;
}

export type StepDecision = StepCall | StepOutcome;

/**
 * A kind of step (inspect's solver): from a trial and its stored history, the next model request
 * or the trial's outcome. Item tests, dialogue turns, judges, deck generators and learners are all
 * steps; the engine runs any of them the same way and never asks which kind it holds. `next` must
 * be a pure function of its input, so a resumed or re-scored run replays the stored calls and
 * reaches the same request or outcome without asking a model.
 */
export interface StepKind {
  readonly specVersion: 'paideia.step.v1';
  /** Registered name, e.g. `item`, `dialogue`, `scenario-judge`, `explanation-judge`. */
  readonly name: string;
  /** Bumped when `next` could ask or finish differently for the same history. */
  readonly version: string;
  /** Trials of this kind judge another trial (`Trial.target`) and run once it is done. */
  readonly judgesTarget: boolean;
  next(input: StepInput): StepDecision | Promise<StepDecision>;
  /**
   * What a failed trial (a call that failed after its retries) still records, e.g. a dialogue's
   * partial transcript or an unscored judgment with the error. Failed trials are never scored as wrong.
   */
  failed?(input: StepInput, error: { message: string; step: number; model: string }): Omit<StepOutcome, 'type' | 'scores'>;
}
