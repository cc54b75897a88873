// A store that cannot commit (a PostgreSQL server gone, a file locked by another program) may keep
// a run's writes waiting for minutes before they fail, while its workers go on calling models whose
// answers then cannot be stored: paid for, lost, and asked again by the resume. The engine asks
// this before each call to a model over the network, and waits while a write has been waiting
// longer than a commit ever takes.

export interface WriteStalls {
  /** Watch a write until it settles (resolved or rejected). */
  track(write: Promise<unknown>): void;
  /**
   * Undefined while no watched write has waited longer than the limit; else resolves once none has
   * (the stalled writes committed, or failed: the run then stops on their failure).
   */
  wait(): Promise<void> | undefined;
}

export function writeStalls(limitMs: number, now: () => number = () => performance.now()): WriteStalls {
  // Start times by write, in the order they were watched: the first is the oldest still waiting.
  const waiting = new Map<number, number>();
  let next = 0;
  let waiters: Array<() => void> = [];
  const stalled = () => {
    const oldest = waiting.values().next();
    return !oldest.done && now() - oldest.value > limitMs;
  };
  const settled = (id: number) => {
    waiting.delete(id);
    if (waiters.length === 0 || stalled()) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  return {
    track(write) {
      const id = next++;
      waiting.set(id, now());
      const done = () => settled(id);
      write.then(done, done);
    },
    wait() {
      return stalled() ? new Promise<void>(resolve => waiters.push(resolve)) : undefined;
    },
  };
}
