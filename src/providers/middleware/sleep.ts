import { ProviderCallError } from '../../core/errors.js';
import { onAbort } from '../shared/on-abort.js';

/** Waits `ms`, or rejects with a ProviderCallError of kind `aborted` as soon as `signal` fires. */
export type SleepFunction = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: SleepFunction = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedWhileWaiting(signal.reason));
    const timer = setTimeout(() => {
      stopWaiting();
      resolve();
    }, ms);
    const stopWaiting = onAbort(signal, () => {
      clearTimeout(timer);
      reject(abortedWhileWaiting(signal?.reason));
    });
  });

export function abortedWhileWaiting(cause?: unknown): ProviderCallError {
  return new ProviderCallError({ message: 'Aborted by the caller while waiting to call the model.', kind: 'aborted', isRetryable: false, cause });
}
