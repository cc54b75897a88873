import type { Frames } from '../run/config.js';
import type { ItemSet } from '../units/schema.js';
import type { TestPhase } from './protocol.js';

/** Artefact kind of a learner trial's answers, keyed by the trial id. */
export const ANSWERS_ARTIFACT = 'learning.answers';

/** One test answer of a learner, as read from its reply (marking happens in the report). */
export interface LearnerAnswer {
  phase: TestPhase;
  set: ItemSet;
  /** Index of the item in its set. */
  index: number;
  prompt: string;
  /** The parsed answer; null when the reply had none (wrong, with `reason`). */
  answer: string | null;
  reason?: string;
  /** The learner's reply as given. */
  raw?: string;
}

/** What a learner trial leaves: its answers, the notes it studied into, and the conditions it ran under. */
export interface LearnerRecord {
  trialId: string;
  unit: string;
  learner: { alias: string; spec: string };
  deck: string;
  deckVariant: string;
  puzzleContext: boolean;
  frames: Frames;
  /** `done`; `no-deck` when the deck was rejected; `failed` when a call failed (never marked wrong). */
  status: 'done' | 'no-deck' | 'failed';
  answers: LearnerAnswer[];
  /** Slides studied (1-based). */
  studied: number[];
  notes: string | null;
  error?: string;
}
