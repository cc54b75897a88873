import { abortedWhileWaiting } from '../middleware/sleep.js';
import { onAbort } from './on-abort.js';

/** A FIFO semaphore: at most `limit` holders at once; a freed slot passes straight to the next waiter. */
export interface Semaphore {
  acquire(signal?: AbortSignal): Promise<void>;
  release(): void;
  /** How many wait for a slot now. */
  queued(): number;
  /** Run `task` holding a slot. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export function createSemaphore(limit: number): Semaphore {
  if (!(limit >= 1)) throw new RangeError(`concurrency limit must be >= 1, got ${limit}`);
  const max = Math.floor(limit);
  let active = 0;
  const waiting: Array<() => void> = [];

  function acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortedWhileWaiting(signal.reason));
    if (active < max && waiting.length === 0) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        stopWaiting();
        resolve();
      };
      // One listener on the signal however many wait on it (onAbort), so no MaxListeners warning.
      const stopWaiting = onAbort(signal, () => {
        const i = waiting.indexOf(grant);
        if (i >= 0) waiting.splice(i, 1);
        reject(abortedWhileWaiting(signal?.reason));
      });
      waiting.push(grant);
    });
  }

  function release(): void {
    const next = waiting.shift();
    // The slot passes straight to the next waiter, so `active` stays the same.
    if (next) next();
    else active--;
  }

  return {
    acquire,
    release,
    queued: () => waiting.length,
    async run(task, signal) {
      await acquire(signal);
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
