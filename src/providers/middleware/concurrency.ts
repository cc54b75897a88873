import type { ChatResult } from '../../core/chat-model.js';
import { onAbort } from '../shared/on-abort.js';
import { abortedWhileWaiting } from './sleep.js';
import type { ChatModelMiddleware } from './wrap.js';

/** At most `limit` calls in flight; the rest wait in arrival order. */
export function concurrencyMiddleware(settings: { limit: number }): ChatModelMiddleware {
  const limit = Math.max(1, Math.floor(settings.limit));
  let active = 0;
  const waiting: Array<() => void> = [];

  function acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortedWhileWaiting(signal.reason));
    if (active < limit && waiting.length === 0) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        stopWaiting();
        resolve();
      };
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
    name: 'concurrency',
    wrapGenerate: async function generateWithSlot({ doGenerate, options }): Promise<ChatResult> {
      await acquire(options.signal);
      try {
        return await doGenerate();
      } finally {
        release();
      }
    },
  };
}
