/**
 * Who may work on trials of a run: a worker's claim on them with a lease. Every call and result a
 * worker stores is checked against its claim in the same transaction, so a worker that lost its
 * claim (paused past the lease, then resumed) cannot write, and another worker picks the trials up.
 */
export interface WorkerIdentity {
  /** Random id of the worker's session. */
  workerId: string;
  pid: number;
  host: string;
}

/** A claim as stored: one per claimed trial. */
export interface TrialClaim extends WorkerIdentity {
  runId: string;
  trialId: string;
  /** Milliseconds since the epoch after which the claim is void unless renewed. */
  expiresAt: number;
}

/** The claim a write was made under; a write whose claim is gone is refused (ClaimLostError). */
export interface WriteFence {
  workerId: string;
}
