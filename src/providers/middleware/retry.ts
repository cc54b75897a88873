import type { ChatResult } from '../../core/chat-model.js';
import { PaideiaError, type ProviderCallError } from '../../core/errors.js';
import { sleep as realSleep, type SleepFunction } from './sleep.js';
import type { ChatModelMiddleware } from './wrap.js';

export interface RetrySettings {
  /** Attempts in all, the first included. Default 5. */
  maxAttempts?: number;
  /** Backoff before the first retry, doubled for each later one. Default 500. */
  baseDelayMs?: number;
  /** Ceiling of the exponential backoff. Default 60000. */
  maxDelayMs?: number;
  /**
   * `full`: uniform in [0, backoff] (spreads a crowd of clients best, AWS "Exponential Backoff
   * and Jitter"); `equal`: backoff/2 + uniform in [0, backoff/2]; `none`: exactly the backoff.
   */
  jitter?: 'full' | 'equal' | 'none';
  /** Ceiling on a server's Retry-After; a longer request is cut to this. Default 120000. */
  maxRetryAfterMs?: number;
  /** Uniform in [0, 1); injected by tests. */
  random?: () => number;
  sleep?: SleepFunction;
}

/** The wait before retry number `attempt` (1 = after the first failure), before Retry-After is applied. */
export function backoffDelay(attempt: number, settings: Required<Pick<RetrySettings, 'baseDelayMs' | 'maxDelayMs' | 'jitter'>>, random: () => number): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (attempt - 1));
  switch (settings.jitter) {
    case 'none': return ceiling;
    case 'equal': return ceiling / 2 + random() * (ceiling / 2);
    case 'full': return random() * ceiling;
  }
}

/**
 * Retries calls that failed with a retryable ProviderCallError, with exponential backoff and
 * jitter. A server's Retry-After is a floor on the wait: retrying sooner only earns another 429.
 * Anything else (bad request, bad key, caller abort, a bug) is thrown at once.
 */
export function retryMiddleware(settings: RetrySettings = {}): ChatModelMiddleware {
  const maxAttempts = Math.max(1, settings.maxAttempts ?? 5);
  const shape = {
    baseDelayMs: settings.baseDelayMs ?? 500,
    maxDelayMs: settings.maxDelayMs ?? 60_000,
    jitter: settings.jitter ?? 'full',
  } as const;
  const maxRetryAfterMs = settings.maxRetryAfterMs ?? 120_000;
  const random = settings.random ?? Math.random;
  const sleep = settings.sleep ?? realSleep;

  return {
    name: 'retry',
    wrapGenerate: async function generateWithRetry({ doGenerate, options }): Promise<ChatResult> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await doGenerate();
        } catch (error) {
          if (attempt >= maxAttempts || !isRetryable(error) || options.signal?.aborted || options.retryUntil?.aborted) throw error;
          let delayMs = backoffDelay(attempt, shape, random);
          if (error.retryAfterMs !== undefined) delayMs = Math.max(delayMs, Math.min(error.retryAfterMs, maxRetryAfterMs));
          delayMs = Math.round(delayMs);
          options.onRetry?.({ attempt, error, delayMs });
          const until = options.retryUntil;
          // Retries end with a drain: the backoff under way ends with this failure, not a new attempt.
          await sleep(delayMs, until && options.signal ? AbortSignal.any([options.signal, until]) : until ?? options.signal)
            .catch((waited: unknown) => { throw until?.aborted && !options.signal?.aborted ? error : waited; });
        }
      }
    },
  };
}

/** A failure the retry middleware tries again (a 5xx, a 429, a timeout, a dropped connection). */
export function isRetryable(error: unknown): error is ProviderCallError {
  // By name, not instanceof: the marker survives a second copy of the package, instanceof doesn't.
  return PaideiaError.isInstance(error) && error.name === 'ProviderCallError' && (error as ProviderCallError).isRetryable === true;
}
