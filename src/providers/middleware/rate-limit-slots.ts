import { randomUUID } from 'node:crypto';
import type { ChatResult } from '../../core/chat-model.js';
import type { Store } from '../../core/store.js';
import { abortedWhileWaiting, sleep as realSleep, type SleepFunction } from './sleep.js';
import type { ChatModelMiddleware } from './wrap.js';

export interface SharedSlotsSettings {
  store: Pick<Store, 'holdSlots'>;
  /** The cap's name in the store: the model and its endpoint. */
  key: string;
  /** Calls in flight at most, across every process sharing the store. */
  max: number;
  /** How long slots stay with this process after its calls end, for the next ones (default 200 ms). */
  leaseMs?: number;
  /** How long a process that stopped renewing keeps its slots (default 30 s): a killed worker's come back then. */
  ttlMs?: number;
  /** How long to wait before asking again when every slot is taken (default 25 ms, plus jitter). */
  pollMs?: number;
  sleep?: SleepFunction;
}

/**
 * At most `max` calls in flight across every worker of a store. Slots are held in the store per
 * process, under a lease it renews; a call that ends hands its slot to the next call waiting in
 * the same process without asking the store, and slots nobody here waits for go back after a short
 * lease. Waiters are served first come, first served.
 */
export function sharedSlotsMiddleware(o: SharedSlotsSettings): ChatModelMiddleware {
  const holder = randomUUID();
  const ttlMs = o.ttlMs ?? 30_000;
  const sleep = o.sleep ?? realSleep;
  const queue: Array<{ resolve(): void; reject(e: unknown): void }> = [];
  let held = 0;
  let busy = 0;
  let pumping = false;
  let giveBackTimer: NodeJS.Timeout | undefined;
  const renewal = setInterval(() => { if (held > 0) void o.store.holdSlots(o.key, o.max, holder, 0, ttlMs).catch(() => undefined); }, ttlMs / 3);
  renewal.unref();

  const handOut = () => {
    while (queue.length && busy < held) {
      busy++;
      queue.shift()!.resolve();
    }
  };
  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length) {
        const got = await o.store.holdSlots(o.key, o.max, holder, queue.length - (held - busy), ttlMs);
        held += got;
        handOut();
        if (queue.length && got === 0) await sleep((o.pollMs ?? 25) + Math.random() * 10);
      }
    } catch (error) {
      for (const w of queue.splice(0)) w.reject(error);
    } finally {
      pumping = false;
    }
  }
  function giveBack(): void {
    const spare = held - busy;
    if (spare <= 0 || queue.length) return;
    held -= spare;
    void o.store.holdSlots(o.key, o.max, holder, -spare, ttlMs).catch(() => undefined);
  }
  function acquire(signal: AbortSignal | undefined): Promise<void> {
    clearTimeout(giveBackTimer);
    if (busy < held && !queue.length) {
      busy++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortedWhileWaiting(signal.reason));
      const w = { resolve: () => { signal?.removeEventListener('abort', onAbort); resolve(); }, reject };
      const onAbort = () => {
        const i = queue.indexOf(w);
        if (i >= 0) queue.splice(i, 1);
        reject(abortedWhileWaiting(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(w);
      void pump();
    });
  }
  function release(): void {
    busy--;
    handOut();
    if (!queue.length) {
      clearTimeout(giveBackTimer);
      giveBackTimer = setTimeout(giveBack, o.leaseMs ?? 200);
      giveBackTimer.unref();
    }
  }

  return {
    name: 'shared-slots',
    wrapGenerate: async function generateInSharedSlot({ doGenerate, options }): Promise<ChatResult> {
      await acquire(options.signal);
      try {
        return await doGenerate();
      } finally {
        release();
      }
    },
  };
}
