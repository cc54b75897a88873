import { ProviderCallError } from '../../core/errors.js';

/** Waits `ms`, or rejects with a ProviderCallError of kind `aborted` as soon as `signal` fires. */
export type SleepFunction = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: SleepFunction = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedWhileWaiting(signal.reason));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedWhileWaiting(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function abortedWhileWaiting(cause?: unknown): ProviderCallError {
  return new ProviderCallError({ message: 'Aborted by the caller while waiting to call the model.', kind: 'aborted', isRetryable: false, cause });
}
