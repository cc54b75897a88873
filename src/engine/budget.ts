/**
 * A hard cost cap shared by concurrent calls. A call reserves its estimate before it starts; when
 * only reservations of calls in flight stand in the way, it waits for them to settle (their real
 * cost is usually lower) before the cap counts as reached.
 */
export interface Budget {
  /** Reserve an estimate; false when the cap is reached and nothing in flight could free room. */
  reserve(estimateUsd: number): Promise<boolean>;
  /** A call ended: release its reservation and charge what it cost (0 for a failed call). */
  settle(estimateUsd: number, costUsd: number): void;
  /** Spent so far, settled calls only. */
  readonly spentUsd: number;
  /** The cap, if any. */
  readonly capUsd: number | undefined;
  /** Stop waiting: every pending and later reserve answers false. */
  cancel(): void;
}

export function createBudget(capUsd: number | undefined, spentUsd = 0): Budget {
  let spent = spentUsd;
  let inFlight = 0;
  let cancelled = false;
  let waiting: Array<() => void> = [];
  const wake = () => {
    const w = waiting;
    waiting = [];
    w.forEach(resolve => resolve());
  };
  return {
    get spentUsd() {
      return spent;
    },
    capUsd,
    async reserve(estimate) {
      while (capUsd !== undefined && estimate > 0 && spent + inFlight + estimate > capUsd) {
        if (cancelled || inFlight <= 0 || spent + estimate > capUsd) return false;
        await new Promise<void>(resolve => waiting.push(resolve));
      }
      if (cancelled) return false;
      inFlight += estimate;
      return true;
    },
    settle(estimate, cost) {
      inFlight -= estimate;
      spent += cost;
      wake();
    },
    cancel() {
      cancelled = true;
      wake();
    },
  };
}
