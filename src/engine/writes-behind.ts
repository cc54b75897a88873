// A worker goes on to its next trials while earlier trials' rows commit; this bounds how many
// commits it may leave behind. It counts them rather than keeping their promises: a list of them,
// cut only at its limit, kept every trial of a worker that runs fewer trials than the limit (at
// concurrency 256, 512 workers of 50 trials: the whole run) alive until the run ended, and each
// young-generation collection copied them on (HTTP c=256: ~6 MB per scavenge, 8-11 ms each).

export interface WritesBehind {
  /** Count a write until it settles. */
  add(write: Promise<unknown>): void;
  /**
   * Undefined while at most `limit` are unsettled; else resolves once one more has settled. Rejects
   * once any added write has rejected (as awaiting that write would have).
   */
  room(): Promise<void> | undefined;
  /** Resolves once every write added so far has settled; rejects with the first that rejected. */
  drained(): Promise<void>;
}

export function writesBehind(limit: number): WritesBehind {
  let unsettled = 0;
  let failure: { error: unknown } | undefined;
  const forRoom: Array<() => void> = [];
  let forDrain: Array<() => void> = [];
  const settled = () => {
    unsettled--;
    if (unsettled <= limit || failure) forRoom.shift()?.();
    if (unsettled === 0) {
      const drained = forDrain;
      forDrain = [];
      for (const resolve of drained) resolve();
    }
  };
  const failed = (error: unknown) => {
    failure ??= { error };
    settled();
  };
  const outcome = () => (failure ? Promise.reject(failure.error) : Promise.resolve());
  return {
    add(write) {
      unsettled++;
      write.then(settled, failed);
    },
    room() {
      if (failure) return outcome();
      return unsettled <= limit ? undefined : new Promise<void>(resolve => forRoom.push(resolve)).then(outcome);
    },
    drained() {
      return unsettled === 0 ? outcome() : new Promise<void>(resolve => forDrain.push(resolve)).then(outcome);
    },
  };
}
