/**
 * Turns of the event loop for workers that may never wait on I/O. Trials whose models answer in
 * process (baselines, instant or replayed models, cache hits) run on promises alone, so without a
 * turn a large run held the loop for seconds at a time (11 s at 200,000 trials): Ctrl-C, timers,
 * and a web server in the same process all waited that long.
 */
export interface LoopTurns {
  /** A turn every worker awaits once the loop has been held `everyMs`; undefined while it has not. */
  due(): Promise<void> | undefined;
}

export function loopTurns(everyMs = 10, now: () => number = () => performance.now()): LoopTurns {
  let since = now();
  let turn: Promise<void> | undefined;
  return {
    due() {
      if (turn) return turn;
      if (now() - since < everyMs) return undefined;
      // One shared turn: the loop goes round only once every worker waits on something.
      turn = new Promise(resolve => setImmediate(() => {
        turn = undefined;
        since = now();
        resolve();
      }));
      return turn;
    },
  };
}
