import type { CallRecord, Store, Trial } from '../core/index.js';
import { latestCalls } from './history.js';
import type { TrialSource } from './trial-source.js';

/**
 * What a run kind reads from the store for the trials it is about to run (a suite run: their
 * items), so a large run holds only the data of the trials in flight, not of the whole run.
 */
export interface TrialInputs {
  /** Read what these trials' steps need; none of them runs before it resolves. */
  load(trials: ReadonlyArray<Trial>): Promise<void>;
  /** Every trial of a loaded chunk has finished: let go of what `load` read for it. */
  release(trials: ReadonlyArray<Trial>): void;
}

/** A trial ready to run: the trial, and its stored calls (the newest of each step). */
export interface TakenTrial {
  trial: Trial;
  history: CallRecord[];
}

export interface TrialChunks {
  /** Wait until the `k`-th trial of the queue can run; resolves to it and its stored history. */
  take(k: number): Promise<TakenTrial>;
  /** Trial `k` has finished (whatever its outcome). */
  finished(k: number): void;
}

interface Chunk {
  trials: ReadonlyArray<Trial>;
  ready: Promise<Map<string, CallRecord[]> | undefined>;
  left: number;
}

/**
 * The trials of a queue, taken in order, a chunk at a time: each chunk's trials are made from the
 * source, and their stored history (newest call per step) and inputs read, a chunk ahead of the
 * workers; all of it is let go once every trial of the chunk has finished. A run of 200,000
 * trials never holds every trial, stored call or item at once.
 */
export function trialChunks(o: {
  store: Store;
  runId: string;
  source: TrialSource;
  /** Plan positions (in `source`) of the trials to run, in the order they run. */
  queue: ArrayLike<number>;
  /** Whether the run has stored calls to replay (a fresh run has none to read). */
  histories: boolean;
  inputs?: TrialInputs | undefined;
  chunk?: number;
}): TrialChunks {
  const size = o.chunk ?? 1000;
  const chunks = new Map<number, Chunk>();
  const load = (c: number): Chunk => {
    let entry = chunks.get(c);
    if (!entry) {
      const trials: Trial[] = [];
      for (let k = c * size; k < Math.min((c + 1) * size, o.queue.length); k++) trials.push(o.source.at(o.queue[k]!));
      const history = o.histories ? o.store.listCalls(o.runId, { trialIds: trials.map(t => t.id) }).then(latestCalls) : undefined;
      const ready = Promise.all([history, o.inputs?.load(trials)]).then(([calls]) => calls);
      // A chunk read ahead may never be taken (the run stopped): its failure must not go unhandled.
      ready.catch(() => undefined);
      entry = { trials, ready, left: trials.length };
      chunks.set(c, entry);
    }
    return entry;
  };
  return {
    async take(k) {
      const c = Math.floor(k / size);
      const entry = load(c);
      // Read the next chunk while this one is worked on, once a quarter of it is under way: read
      // with the first trial, its read would hold up the run's first calls (nothing is in flight yet).
      if (k % size === size >> 2 && (c + 1) * size < o.queue.length) load(c + 1);
      const calls = await entry.ready;
      const trial = entry.trials[k - c * size]!;
      return { trial, history: calls?.get(trial.id) ?? [] };
    },
    finished(k) {
      const c = Math.floor(k / size);
      const entry = chunks.get(c);
      if (!entry || --entry.left > 0) return;
      chunks.delete(c);
      o.inputs?.release(entry.trials);
    },
  };
}
