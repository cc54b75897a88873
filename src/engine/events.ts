import type { Score, Trial } from '../core/index.js';

/** Why a run stopped before its work was done; everything stored is kept and resumable. */
export type StopReason = 'cost-cap' | 'interrupt' | 'claim-lost';

/** What the engine tells its consumers (the CLI's progress, the web app) as a run goes. */
export type RunEvent =
  | { type: 'start'; total: number; done: number; failed: number; pending: number; spentUsd: number }
  | { type: 'trial'; trial: Trial; status: 'done' | 'failed'; costUsd: number; spentUsd: number; scores?: Score[] }
  | { type: 'retry'; trial: Trial; attempt: number; delayMs: number; error: string }
  | { type: 'stop'; reason: StopReason };

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
}
