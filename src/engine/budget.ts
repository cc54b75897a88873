import { randomUUID } from 'node:crypto';
import type { Store } from '../core/index.js';

/** A reservation of a call in flight. */
export interface BudgetHold {
  readonly id: string;
  readonly estimateUsd: number;
}

/**
 * A hard cost cap shared by every call of a run, in this process and in any other worker: each
 * call reserves its estimate in the store before it starts (the store checks spend plus every
 * reservation under one lock), and the reservation is released once the call's record, with its
 * real cost, is stored. When only calls in flight stand in the way, a call waits for them (their
 * real cost is usually lower) before the cap counts as reached.
 */
export interface Budget {
  /** Reserve an estimate; undefined when the cap is reached and nothing in flight could free room. */
  reserve(estimateUsd: number): Promise<BudgetHold | undefined>;
  /**
   * A call ended: charge what it cost (0 for a failed call) and release its reservation once
   * `stored` (the write of its record) has landed.
   */
  settle(hold: BudgetHold, costUsd: number, stored?: Promise<unknown>): void;
  /** Spent so far by the run, as this process knows it. */
  readonly spentUsd: number;
  /** How much calls cost beyond what was reserved for them (a provider billing past max_tokens). */
  readonly overshootUsd: number;
  /** The largest estimate the cap refused (0 if none): a higher cap must leave this much room above the spend. */
  readonly refusedUsd: number;
  readonly capUsd: number | undefined;
  /** Stop waiting: every pending and later reserve answers undefined. */
  cancel(): void;
}

export interface BudgetOptions {
  store: Store;
  runId: string;
  workerId: string;
  capUsd: number | undefined;
  /** The run's stored spend when this session started. */
  spentUsd: number;
  /** How long to wait before asking again while other workers' calls are in flight. */
  pollMs?: number;
}

export function createBudget(o: BudgetOptions): Budget {
  let spent = o.spentUsd;
  let overshoot = 0;
  let refused = 0;
  // Calls holding a reservation, counted (a float sum of their estimates never quite returns to 0).
  let inFlight = 0;
  let cancelled = false;
  let waiting: Array<() => void> = [];
  const wake = () => {
    const w = waiting;
    waiting = [];
    w.forEach(resolve => resolve());
  };
  const free: BudgetHold = { id: '', estimateUsd: 0 };
  return {
    get spentUsd() {
      return spent;
    },
    get overshootUsd() {
      return overshoot;
    },
    get refusedUsd() {
      return refused;
    },
    capUsd: o.capUsd,
    async reserve(estimate) {
      if (cancelled) return undefined;
      // Nothing to reserve: no id, so settling it touches no store (a free call shares one hold).
      if (estimate <= 0) return free;
      if (o.capUsd === undefined) return { id: '', estimateUsd: estimate };
      const hold = { id: randomUUID(), estimateUsd: estimate };
      for (;;) {
        if (cancelled) return undefined;
        if (await o.store.reserveBudget(o.runId, { id: hold.id, workerId: o.workerId, amountUsd: estimate }, o.capUsd)) break;
        if (cancelled) return undefined;
        if (inFlight > 0) await new Promise<void>(resolve => waiting.push(resolve));
        else if ((await o.store.reservedUsd(o.runId)) > 0) await new Promise<void>(resolve => setTimeout(resolve, o.pollMs ?? 50));
        else {
          refused = Math.max(refused, estimate);
          return undefined;
        }
      }
      inFlight++;
      return hold;
    },
    settle(hold, cost, stored) {
      spent += cost;
      if (cost > hold.estimateUsd) overshoot += cost - hold.estimateUsd;
      if (!hold.id) return;
      const release = () => o.store.releaseBudget(o.runId, hold.id).finally(() => {
        inFlight--;
        wake();
      });
      void (stored ?? Promise.resolve()).then(release, release);
    },
    cancel() {
      cancelled = true;
      wake();
    },
  };
}
