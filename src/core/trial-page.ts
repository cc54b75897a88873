import type { StoredError } from './call-record.js';
import type { Score } from './scorer.js';
import type { Trial } from './trial.js';

/**
 * What a report reads of one stored call: whose step it was, how it ended, its answer's text and
 * its cost. Requests and raw bodies stay in the store.
 */
export interface CallOutline {
  /** Store sequence number: calls of a step are ordered by it, the newest decides the step. */
  seq: number;
  trialId: string;
  /** 0-based step within the trial. */
  step: number;
  status: 'ok' | 'error';
  /** The answer's text (absent when the call stored no result). */
  text?: string;
  error?: StoredError;
  costUsd: number;
}

/** Where a page of a run's trials starts (after this trial id, in id order) and how many it holds at most. */
export interface TrialPageRequest {
  afterId?: string;
  limit: number;
  /**
   * Read each call's answer text (default true). False leaves `text` out of every CallOutline:
   * a table that shows no answer (a run's terminal summary) skips reading the stored results.
   */
  answers?: boolean;
}

/**
 * A page of a run's trials, in id order, with every call and score of those trials. Pages split
 * the run by trial id: the first page also holds rows of ids before its first trial, the last
 * (shorter than the limit) those after its last, so a run read page by page yields each of its
 * calls and scores exactly once.
 */
export interface TrialPage {
  trials: Trial[];
  /** In insertion (sequence) order. */
  calls: CallOutline[];
  /** By trial id, then scorer name. */
  scores: Score[];
}
