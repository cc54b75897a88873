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

/** Where a page of a run's trials starts (after this trial, in plan order) and how many it holds at most. */
export interface TrialPageRequest {
  /** The last trial of the page before (its plan index and id); none: from the start. */
  after?: { index: number; id: string };
  limit: number;
  /**
   * Read each call's answer text (default true). False leaves `text` out of every CallOutline:
   * a table that shows no answer (a run's terminal summary) skips reading the stored results.
   */
  answers?: boolean;
}

/**
 * A page of a run's trials in plan order (plan index, then id), with every call and score of those
 * trials. Pages split the run by plan position: the first page also holds the calls and scores of
 * trials the store does not hold, so a run read page by page yields each of them exactly once. In
 * plan order a page's rows lie together in the store (they were written in that order), where
 * pages by id gathered them from all over it: a report of 200,000 trials read its pages 3x slower.
 */
export interface TrialPage {
  trials: Trial[];
  /** In insertion (sequence) order. */
  calls: CallOutline[];
  /** Rows of trials the store does not hold first (by trial id), then by trial in page order; within a trial by scorer name and version. */
  scores: Score[];
}
