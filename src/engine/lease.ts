import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ConfigError, type RunLease, type Store } from '../core/index.js';

export interface LeaseOptions {
  /** How long a lease lasts without renewal (default 30 s); it is renewed every third of that. */
  ttlMs?: number;
  now?: () => number;
  pid?: number;
  host?: string;
  /** Whether a process on this host is still running (default: signal 0). */
  isAlive?: (pid: number) => boolean;
}

export interface HeldLease {
  readonly lease: RunLease;
  release(): Promise<void>;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take the run for this process, so two processes never call the same trials (double cost, a cap
 * that holds per process only). A lease held by a live process is refused; one that expired, or
 * whose process on this host is gone (a kill -9), is taken over at once.
 */
export async function acquireRunLease(store: Store, runId: string, o: LeaseOptions = {}): Promise<HeldLease> {
  const ttlMs = o.ttlMs ?? 30_000;
  const now = o.now ?? Date.now;
  const host = o.host ?? hostname();
  const pid = o.pid ?? process.pid;
  const alive = o.isAlive ?? processAlive;
  const lease: RunLease = { holderId: randomUUID(), pid, host, since: new Date(now()).toISOString(), expiresAt: now() + ttlMs };
  for (let attempt = 0; ; attempt++) {
    const current = await store.getRunLease(runId);
    const live = current && current.expiresAt > now() && !(current.host === host && !alive(current.pid));
    if (live) {
      throw new ConfigError([{
        field: 'run',
        message: `run ${runId} is being run by process ${current.pid} on ${current.host} (since ${current.since}); wait for it to finish or stop it, then run the command again`,
      }]);
    }
    if (await store.swapRunLease(runId, current?.holderId ?? null, lease)) break;
    if (attempt >= 5) throw new ConfigError([{ field: 'run', message: `run ${runId} is being taken by another process at this moment; try again` }]);
  }
  const timer = setInterval(() => {
    void store.swapRunLease(runId, lease.holderId, { ...lease, expiresAt: now() + ttlMs }).catch(() => undefined);
  }, Math.max(10, ttlMs / 3));
  timer.unref();
  return {
    lease,
    async release() {
      clearInterval(timer);
      await store.swapRunLease(runId, lease.holderId, null);
    },
  };
}
