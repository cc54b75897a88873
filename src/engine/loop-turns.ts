// Turns of the event loop for workers that may never wait on I/O. Trials whose models answer in
// process (baselines, instant or replayed models, cache hits) run on promises alone, so without a
// turn a 200,000-trial run held the loop for stretches of 13-18 s: Ctrl-C, timers and a web server
// in the same process all waited that long.

/**
 * How long workers may hold the loop. Each turn also lets the group commit run, so it sets the size
 * of a fast model's commits. Calling phase of 200,000 instant trials / peak RSS of 20,000 (quiet
 * machine): 10 ms 18.7-19.7 s / 165-216 MB, 20 ms 17.5-17.8 s / 215-222 MB, 50 ms 16.7-17.3 s /
 * 236-247 MB. A Ctrl-C lands within a fiftieth of a second.
 */
const TURN_EVERY_MS = 20;

export interface LoopTurns {
  /** A turn every worker awaits once the loop has been held `everyMs`; undefined while it has not. */
  due(): Promise<void> | undefined;
}

export function loopTurns(everyMs = TURN_EVERY_MS, now: () => number = () => performance.now()): LoopTurns {
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
