import type { Score } from './scorer.js';
import type { Trial } from './trial.js';

/** Why a run stopped before its work was done; everything stored is kept and resumable. */
export type StopReason = 'cost-cap' | 'interrupt' | 'claim-lost' | 'unreachable';

/**
 * What a run tells its consumers as it goes: the CLI's progress bar and the web app's live view
 * read the same stream. `planned` comes first, with the run id; `start` once the engine knows
 * what is left to do (a resume starts with trials already done).
 */
export type RunEvent =
  | { type: 'planned'; runId: string; kind: string; trials: number }
  /**
   * `done` and `failed` count trials finished before this session and not run again; `retried`
   * counts failed trials run again (`--retry-errors`), which are in `pending`.
   */
  | { type: 'start'; total: number; done: number; failed: number; pending: number; spentUsd: number; retried?: number }
  | { type: 'trial'; trial: Trial; status: 'done' | 'failed'; costUsd: number; spentUsd: number; scores?: Score[] }
  | { type: 'retry'; trial: Trial; attempt: number; delayMs: number; error: string }
  /** With reason `unreachable`: the endpoint nothing answers at, and the error that showed it. */
  | { type: 'stop'; reason: StopReason; endpoint?: string; error?: string }
  /** Something the user should know that does not stop the run (an unpriced model, an ignored flag). */
  | { type: 'warning'; message: string };

/** Counts of one engine session over a run's trials. */
export interface RunSummary {
  total: number;
  done: number;
  failed: number;
  pending: number;
  /** Offline (rescore): trials whose step asked for a call the store does not hold. */
  needsCall: number;
  /** Judge trials not run because the trial they judge failed (they run once it is retried). */
  blocked: number;
  spentUsd: number;
  /** Cost beyond what calls reserved (a provider billing past the request's max_tokens). */
  overshootUsd: number;
  stoppedBy?: StopReason;
  /** With `stoppedBy: 'cost-cap'`: the largest estimate of a call the cap refused (a cap that goes on must leave this much above the spend). */
  refusedUsd?: number;
  /** With `stoppedBy: 'unreachable'`: the endpoint nothing answered at. */
  unreachable?: { endpoint: string; error: string };
}
