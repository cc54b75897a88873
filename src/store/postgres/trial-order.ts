/**
 * Writes of one trial, committed in the order they were made. The pool sends concurrent queries
 * over different connections, so without this a trial's result could commit before the call it
 * was scored from, and a kill -9 between the two would leave a finished trial without its call
 * (a resume then never asks again). A write waits for the trial's earlier ones and fails with
 * the first of them that failed: a result is never stored over a lost call.
 */
export function inTrialOrder(): <T>(runId: string, trialId: string, write: () => Promise<T>) => Promise<T> {
  // The last write queued per trial; removed once it settles with nothing queued after it.
  const last = new Map<string, Promise<unknown>>();
  return (runId, trialId, write) => {
    const key = `${runId}\u0000${trialId}`;
    const before = last.get(key);
    const mine = before ? before.then(write) : write();
    last.set(key, mine);
    const forget = () => {
      if (last.get(key) === mine) last.delete(key);
    };
    mine.then(forget, forget);
    return mine;
  };
}
