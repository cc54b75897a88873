import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { RunHeldError, type Store, type TrialClaim, type WorkerIdentity } from '../core/index.js';
import { loopTurns } from './loop-turns.js';

export interface ClaimOptions {
  /**
   * How long a claim lasts without renewal (default 30 s, or PAIDEIA_CLAIM_TTL_MS); it is renewed
   * every third of that.
   */
  ttlMs?: number;
  now?: () => number;
  pid?: number;
  host?: string;
  /** Whether a process on this host is still running (default: it exists and is no zombie). */
  isAlive?: (pid: number) => boolean;
  /** Told once when a renewal finds the claims gone (another worker took them over). */
  onLost?: () => void;
}

/** The trials a worker asks to claim, by their place in its list (an array of ids is one). */
export interface TrialIdList {
  readonly length: number;
  at(i: number): string | undefined;
}

/** A worker's hold on trials of a run. */
export interface HeldClaims {
  readonly worker: WorkerIdentity;
  /** Whether this worker holds the `i`-th trial of the list it claimed. */
  holds(i: number): boolean;
  /** How many trials it holds. */
  readonly count: number;
  /** True once a renewal found the claims taken over: stop calling. */
  readonly lost: boolean;
  /**
   * True when the last renewal is older than half the lease (the process was paused: SIGSTOP, a
   * sleeping laptop): the claims may be gone, so confirm them before starting a call.
   */
  readonly stale: boolean;
  /** Renew now; false when the claims were taken over (then `lost` is true too). */
  confirm(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * Trials claimed per statement. Each is a transaction of its own, writing the claims' key index,
 * whose keys are random trial ids: at 200,000 trials chunks of 5,000 took 1.06 s, of 50,000 0.61 s
 * (medians of 3).
 */
const CLAIM_CHUNK = 50_000;

/** The lease of a claim: 30 s, or PAIDEIA_CLAIM_TTL_MS milliseconds (tests of a paused process use a short one). */
export function defaultTtlMs(): number {
  const ms = Number(process.env['PAIDEIA_CLAIM_TTL_MS']);
  return Number.isInteger(ms) && ms >= 100 ? ms : 30_000;
}

/** Whether a process is running: signal 0 reaches it and, on Linux, it is not a zombie left by a kill -9. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Whether some process is working on the run, by the rule claimRunTrials takes claims over by: a
 * holder on this host whose process still runs, or one elsewhere whose lease has not run out.
 * Reads only (a listing must not write): the dead holders' claims stay until a run takes them.
 */
export async function runHeldLive(store: Store, runId: string, o: Pick<ClaimOptions, 'now' | 'host' | 'isAlive'> = {}): Promise<boolean> {
  return holdersLive(await store.listClaimHolders(runId), o);
}

/** runHeldLive's rule over holders already read. */
export function holdersLive(holders: ReadonlyArray<Pick<TrialClaim, 'host' | 'pid' | 'expiresAt'>>, o: Pick<ClaimOptions, 'now' | 'host' | 'isAlive'> = {}): boolean {
  const host = o.host ?? hostname();
  const now = (o.now ?? Date.now)();
  const alive = o.isAlive ?? processAlive;
  return holders.some(h => (h.host === host ? alive(h.pid) : h.expiresAt > now));
}

/**
 * Claim the given trials for this process, so two processes never call the same trials (double
 * cost, a cap that holds per process only). Claims of a live worker are left alone; a worker on
 * this host whose process is gone (a kill -9) loses its claims at once, one elsewhere when they
 * expire. When every trial is held by another live worker the run is refused with who holds it.
 */
export async function claimRunTrials(store: Store, runId: string, trialIds: TrialIdList, o: ClaimOptions = {}): Promise<HeldClaims> {
  const ttlMs = o.ttlMs ?? defaultTtlMs();
  const now = o.now ?? Date.now;
  const worker: WorkerIdentity = { workerId: randomUUID(), pid: o.pid ?? process.pid, host: o.host ?? hostname() };
  const alive = o.isAlive ?? processAlive;
  for (const h of await store.listClaimHolders(runId)) {
    if (h.host === worker.host && !alive(h.pid)) await store.releaseClaims(runId, h.workerId);
  }
  // Held trials as a bit per place in the list, not a set of ids: a run of 200,000 trials.
  const held = new Uint8Array(trialIds.length);
  // Ids the store gave that were not asked for in that slice (a worker's batch from the queue).
  let other: Set<string> | undefined;
  let count = 0;
  const turns = loopTurns();
  for (let i = 0; i < trialIds.length; i += CLAIM_CHUNK) {
    const turn = turns.due();
    if (turn) await turn;
    const slice = Array.from({ length: Math.min(CLAIM_CHUNK, trialIds.length - i) }, (_, j) => trialIds.at(i + j)!);
    // Two trials with one id would be one row in the store: a plan that makes them is wrong, and
    // running it would store one trial's answers under the other (a suite once planned one model
    // under two aliases so, side by side). Checked within each slice claimed at once: a set of a
    // whole large run's ids is what the claims' bits avoid holding.
    const place = new Map<string, number>();
    slice.forEach((id, j) => {
      if (place.has(id)) throw new Error(`trials ${place.get(id)} and ${i + j} of run ${runId} have the same id ${id}: a run's trials must have distinct ids`);
      place.set(id, i + j);
    });
    const got = await store.claimTrials(runId, worker, slice, now() + ttlMs);
    if (got.length === 0) continue;
    for (const id of got) {
      const k = place.get(id);
      if (k !== undefined) {
        if (!held[k]) count++;
        held[k] = 1;
      } else if (!(other ??= new Set()).has(id)) {
        other.add(id);
        count++;
      }
    }
  }
  if (trialIds.length > 0 && count === 0) {
    const other = (await store.listClaimHolders(runId)).find(h => h.workerId !== worker.workerId);
    throw new RunHeldError(runId, `run ${runId} is being run by process ${other?.pid ?? '?'} on ${other?.host ?? '?'}; wait for it to finish or stop it, then run the command again`);
  }
  let lost = false;
  let renewedAt = now();
  const renew = async (): Promise<boolean> => {
    const asked = now();
    const n = await store.renewClaims(runId, worker.workerId, asked + ttlMs);
    if (n < count) {
      if (!lost) {
        lost = true;
        o.onLost?.();
      }
    } else renewedAt = Math.max(renewedAt, asked);
    return !lost;
  };
  const timer = setInterval(() => void renew().catch(() => undefined), Math.max(10, ttlMs / 3));
  timer.unref();
  return {
    worker,
    holds: i => held[i] === 1 || (other !== undefined && other.has(trialIds.at(i)!)),
    count,
    get lost() {
      return lost;
    },
    get stale() {
      return lost || now() - renewedAt > ttlMs / 2;
    },
    confirm: () => (lost ? Promise.resolve(false) : renew()),
    async release() {
      clearInterval(timer);
      await store.releaseClaims(runId, worker.workerId);
    },
  };
}
