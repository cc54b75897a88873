import type { ChatRequest, ChatResult } from '../../core/chat-model.js';
import { estimateRequestTokens } from '../shared/estimate-tokens.js';
import { sharedAdmission, type Admission, type PermitStore } from './rate-limit-shared.js';
import { sleep as realSleep, type SleepFunction } from './sleep.js';
import type { ChatModelMiddleware } from './wrap.js';

export interface RateLimitSettings {
  requestsPerMinute: number;
  /** Input + output tokens per minute; requests are charged an estimate, corrected by reported usage. */
  tokensPerMinute?: number;
  /** Requests that may go at once after an idle spell. Default one second's worth (at least 1). */
  burst?: number;
  /**
   * Share the limit with every process using this store: its buckets are rows of the store,
   * named by `key` (the model and endpoint), so N workers together stay under the rate.
   */
  shared?: { store: PermitStore; key: string };
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

/** This process's own buckets; waiters are served first come, first served. */
function localAdmission(s: RateLimitSettings, burst: number): Admission {
  const now = s.now ?? Date.now;
  const sleep = s.sleep ?? realSleep;
  const requests = new Bucket(burst, s.requestsPerMinute / 60_000, now);
  const tokens = s.tokensPerMinute ? new Bucket(s.tokensPerMinute, s.tokensPerMinute / 60_000, now) : undefined;
  let tail: Promise<void> = Promise.resolve();
  async function admit(need: number, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const wait = Math.max(requests.waitFor(1), tokens ? tokens.waitFor(need) : 0);
      if (wait <= 0) break;
      await sleep(wait, signal);
    }
    requests.take(1);
    tokens?.take(need);
  }
  return {
    admit(need, signal) {
      const turn = tail.then(() => admit(need, signal));
      tail = turn.catch(() => undefined);
      return turn;
    },
    correct(delta) {
      tokens?.take(delta);
    },
  };
}

/**
 * Keeps calls under a provider's per-minute limits, so a big run spends its time waiting here
 * rather than collecting 429s: in this process, or across every worker sharing the store.
 */
export function rateLimitMiddleware(settings: RateLimitSettings): ChatModelMiddleware {
  const estimate = settings.estimateTokens ?? ((r: ChatRequest) => {
    const e = estimateRequestTokens(r);
    return e.inputTokens + e.outputTokens;
  });
  // A minute's worth at once is the burst a provider's shorter windows refuse; one second's is not.
  const burst = settings.burst ?? Math.max(1, settings.requestsPerMinute / 60);
  const tokenCapacity = settings.tokensPerMinute ?? 0;
  const admission = settings.shared
    ? sharedAdmission({
      store: settings.shared.store, ...(settings.sleep ? { sleep: settings.sleep } : {}),
      requests: { key: `requests ${settings.shared.key}`, capacity: burst, perSecond: settings.requestsPerMinute / 60 },
      ...(settings.tokensPerMinute ? { tokens: { key: `tokens ${settings.shared.key}`, capacity: tokenCapacity, perSecond: settings.tokensPerMinute / 60 } } : {}),
    })
    : localAdmission(settings, burst);

  return {
    name: 'rate-limit',
    wrapGenerate: async function generateRateLimited({ doGenerate, request, options }): Promise<ChatResult> {
      const cost = tokenCapacity ? estimate(request) : 0;
      // A request bigger than the whole bucket would wait forever; it goes on a full bucket, charged in full.
      const need = Math.min(cost, tokenCapacity);
      await admission.admit(need, options.signal);
      if (cost > need) admission.correct(cost - need);
      const result = await doGenerate();
      if (tokenCapacity && result.usage) admission.correct(result.usage.inputTokens + result.usage.outputTokens - cost);
      return result;
    },
  };
}
