import type { ChatRequest, ChatResult } from '../../core/chat-model.js';
import { estimateRequestTokens } from '../shared/estimate-tokens.js';
import { sleep as realSleep, type SleepFunction } from './sleep.js';
import type { ChatModelMiddleware } from './wrap.js';

export interface RateLimitSettings {
  requestsPerMinute: number;
  /** Input + output tokens per minute; requests are charged an estimate, corrected by reported usage. */
  tokensPerMinute?: number;
  /** Requests that may go at once after an idle spell. Default `requestsPerMinute`. */
  burst?: number;
  /** Milliseconds clock; injected by tests. */
  now?: () => number;
  sleep?: SleepFunction;
  /** Tokens a request is charged before its usage is known. Default: estimateRequestTokens, input + output. */
  estimateTokens?: (request: ChatRequest) => number;
}

/** A token bucket: holds up to `capacity`, refills continuously at `perMs`, may go into debt. */
class Bucket {
  private level: number;
  private last: number;
  constructor(readonly capacity: number, private readonly perMs: number, private readonly now: () => number) {
    this.level = capacity;
    this.last = now();
  }
  /** Milliseconds until `amount` is available (0 = now). */
  waitFor(amount: number): number {
    const t = this.now();
    this.level = Math.min(this.capacity, this.level + (t - this.last) * this.perMs);
    this.last = t;
    return this.level >= amount ? 0 : Math.ceil((amount - this.level) / this.perMs);
  }
  take(amount: number): void {
    this.level -= amount;
  }
}

/**
 * Keeps calls under a provider's per-minute limits, so a big run spends its time waiting here
 * rather than collecting 429s. Waiters are served first come, first served.
 */
export function rateLimitMiddleware(settings: RateLimitSettings): ChatModelMiddleware {
  const now = settings.now ?? Date.now;
  const sleep = settings.sleep ?? realSleep;
  const estimate = settings.estimateTokens ?? ((r: ChatRequest) => {
    const e = estimateRequestTokens(r);
    return e.inputTokens + e.outputTokens;
  });
  const requests = new Bucket(settings.burst ?? settings.requestsPerMinute, settings.requestsPerMinute / 60_000, now);
  const tokens = settings.tokensPerMinute ? new Bucket(settings.tokensPerMinute, settings.tokensPerMinute / 60_000, now) : undefined;
  let tail: Promise<void> = Promise.resolve();

  async function admit(cost: number, signal: AbortSignal | undefined): Promise<void> {
    // A request bigger than the whole bucket would wait forever; let it through on a full bucket.
    const need = tokens ? Math.min(cost, tokens.capacity) : 0;
    for (;;) {
      const wait = Math.max(requests.waitFor(1), tokens ? tokens.waitFor(need) : 0);
      if (wait <= 0) break;
      await sleep(wait, signal);
    }
    requests.take(1);
    tokens?.take(cost);
  }

  return {
    name: 'rate-limit',
    wrapGenerate: async function generateRateLimited({ doGenerate, request, options }): Promise<ChatResult> {
      const cost = tokens ? estimate(request) : 0;
      const turn = tail.then(() => admit(cost, options.signal));
      tail = turn.catch(() => undefined);
      await turn;
      const result = await doGenerate();
      if (tokens && result.usage) tokens.take(result.usage.inputTokens + result.usage.outputTokens - cost);
      return result;
    },
  };
}
