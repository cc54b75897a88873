import type { PermitBucket, Store } from '../../core/store.js';
import { abortedWhileWaiting, sleep as realSleep, type SleepFunction } from './sleep.js';

/** The store's side of a shared limit: its token buckets. */
export type PermitStore = Pick<Store, 'takePermits' | 'returnPermits'>;

export interface SharedAdmissionOptions {
  store: PermitStore;
  requests: PermitBucket;
  tokens?: PermitBucket;
  /** How long permits taken ahead of demand are kept before they go back (default 200 ms). */
  leaseMs?: number;
  sleep?: SleepFunction;
}

/** Admits calls against buckets in the store; see sharedAdmission. */
export interface Admission {
  /** Wait until one request and `tokens` tokens are this caller's (first come, first served). */
  admit(tokens: number, signal?: AbortSignal): Promise<void>;
  /** The call used `delta` tokens more than it was admitted with (negative: fewer). */
  correct(delta: number): void;
}

interface Waiter {
  need: number;
  request: boolean;
  tokens: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A rate limit shared by every worker of a store. Callers queue here; one pump takes permits
 * from the store's buckets for everyone waiting in one round trip per bucket (plus a little
 * ahead when the rate is high, about 50 ms worth), hands them out in arrival order, and puts
 * back what is left unused once its lease ends, so the store sees a few statements per batch of
 * calls, not per call. When a bucket is empty the pump sleeps until the store says it refills.
 */
export function sharedAdmission(o: SharedAdmissionOptions): Admission {
  const sleep = o.sleep ?? realSleep;
  const leaseMs = o.leaseMs ?? 200;
  const ahead = (b: PermitBucket) => Math.min(Math.floor(b.capacity), Math.floor(b.perSecond / 20));
  const queue: Waiter[] = [];
  const stock = { requests: 0, tokens: 0 };
  let owed = 0;
  let pumping = false;
  let leaseTimer: NodeJS.Timeout | undefined;

  async function take(b: PermitBucket, want: number, atLeast: number): Promise<{ granted: number; waitMs: number }> {
    return o.store.takePermits(b, Math.min(want, Math.floor(b.capacity)), Math.min(atLeast, b.capacity));
  }

  async function round(): Promise<number> {
    if (owed !== 0 && o.tokens) {
      const delta = owed;
      owed = 0;
      await o.store.returnPermits(o.tokens, -delta);
    }
    let waitMs = 0;
    const lacking = queue.filter(w => !w.request);
    if (lacking.length > stock.requests) {
      const got = await take(o.requests, lacking.length - stock.requests + ahead(o.requests), 1);
      stock.requests += got.granted;
      if (!got.granted) waitMs = got.waitMs;
    }
    for (const w of queue) if (!w.request && stock.requests >= 1) { w.request = true; stock.requests--; }
    if (o.tokens) {
      const want = queue.filter(w => w.request && !w.tokens);
      const sum = want.reduce((a, w) => a + w.need, 0);
      if (want.length && stock.tokens < want[0]!.need) {
        const got = await take(o.tokens, sum - stock.tokens, want[0]!.need - stock.tokens);
        stock.tokens += got.granted;
        if (!got.granted) waitMs = Math.max(waitMs, got.waitMs);
      }
      // In arrival order: a call whose tokens are not there yet keeps the ones behind it waiting.
      for (const w of want) {
        if (stock.tokens < w.need) break;
        w.tokens = true;
        stock.tokens -= w.need;
      }
    }
    for (const w of [...queue]) {
      if (w.request && (w.tokens || !o.tokens)) {
        queue.splice(queue.indexOf(w), 1);
        w.resolve();
      }
    }
    return waitMs;
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    clearTimeout(leaseTimer);
    try {
      while (queue.length) {
        const waitMs = await round();
        // Another worker may take the refill first; a little jitter keeps workers from asking in step.
        if (queue.length && waitMs > 0) await sleep(Math.min(1000, Math.max(5, waitMs)) + Math.random() * 5);
      }
    } catch (error) {
      for (const w of queue.splice(0)) w.reject(error);
    } finally {
      pumping = false;
      leaseTimer = setTimeout(giveBack, leaseMs);
      leaseTimer.unref();
    }
  }

  function giveBack(): void {
    if (queue.length || pumping) return;
    const back = { ...stock };
    stock.requests = 0;
    stock.tokens = 0;
    if (back.requests >= 1) void o.store.returnPermits(o.requests, Math.floor(back.requests)).catch(() => undefined);
    if (o.tokens && back.tokens > 0) void o.store.returnPermits(o.tokens, back.tokens).catch(() => undefined);
  }

  return {
    admit(tokens, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortedWhileWaiting(signal.reason));
        const w: Waiter = {
          need: Math.max(0, Math.ceil(tokens)), request: false, tokens: false,
          resolve: () => { signal?.removeEventListener('abort', onAbort); resolve(); }, reject,
        };
        // A caller that gives up hands back what it was given, to the next in line.
        const onAbort = () => {
          const i = queue.indexOf(w);
          if (i < 0) return;
          queue.splice(i, 1);
          if (w.request) stock.requests++;
          if (w.tokens) stock.tokens += w.need;
          reject(abortedWhileWaiting(signal?.reason));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(w);
        void pump();
      });
    },
    correct(delta) {
      owed += delta;
    },
  };
}
