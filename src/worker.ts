import { commandHint } from './core/command-hint.js';
/**
 * A worker: claims trials of stored runs from the store's work queue and runs them through the
 * runs' own kinds (the same engine and call path as `paideia run`), a batch at a time, until no
 * run has work it could take. Any number of workers, on any machines, share one PostgreSQL store.
 */
import { ConfigError, type Env, type RunEvent, type RunOutcome, type RunRecord, type Store } from './core/index.js';
import { loadRunConfig } from './engine/run-config.js';
import { startRun, type RunConfig } from './runs.js';
import { batchView } from './worker-view.js';

export interface WorkerOptions {
  store: Store;
  /** Only this run (default: every stored run that is not finished). */
  runId?: string;
  /** Concurrent calls per provider (default: what the run was planned with). */
  concurrency?: number;
  /** Trials claimed per batch (default 16 per concurrent call, at least 64, and 1/50 of a large run). */
  batch?: number;
  /** Keep waiting for new work instead of ending when none is left. */
  follow?: boolean;
  /** How often an idle worker looks again (default 500 ms). */
  pollMs?: number;
  /** Start no new call (calls in flight finish and are stored), then end. */
  stopSignal?: AbortSignal;
  /** Abort calls in flight too. */
  signal?: AbortSignal;
  env?: Env;
  onEvent?: (runId: string, event: RunEvent) => void;
}

/** What a worker did, per run it worked on. */
export interface WorkerSummary {
  runs: Array<{
    runId: string; done: number; failed: number; batches: number; stoppedBy?: RunOutcome['stoppedBy'];
    /** The run was deleted from the store while this worker worked on it. */
    deleted?: true;
    /** With `stoppedBy: 'cost-cap'`: the cap, the run's spend, and the estimate of the call it refused (for a cap that lets it go on). */
    cap?: { capUsd: number | undefined; spentUsd: number; refusedUsd?: number };
    /** With `stoppedBy: 'unreachable'`: where nothing answered, and what the connection said. */
    unreachable?: { endpoint: string; error: string };
    /** Once the run has no trial left to take: how many of its trials failed, this worker's or others'. */
    runFailed?: number;
  }>;
}

// Each wait removes its abort listener when it ends: a worker waits many times on one signal.
const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>(resolve => {
  const onAbort = () => { clearTimeout(timer); resolve(); };
  const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
  signal?.addEventListener('abort', onAbort, { once: true });
});

/** The config a worker starts a stored run with: the one it was planned with, or a plain resume. */
async function configOf(store: Store, run: RunRecord, o: WorkerOptions): Promise<RunConfig> {
  const stored = await loadRunConfig(store, run.id);
  const base = stored ?? (run.kind === 'scenario'
    ? { kind: 'scenario', file: run.config.suites[0], repeats: run.config.repeats }
    : { kind: run.kind, resume: run.id });
  // Every kind takes the worker's concurrency (a scenario's replaces its file's globals.concurrency).
  return { ...base, ...(o.concurrency ? { concurrency: o.concurrency } : {}) } as RunConfig;
}

/** `--run ID` names a run the store no longer holds: deleted while this worker worked on it. */
function goneError(store: Store, entry: WorkerSummary['runs'][number]): ConfigError {
  return new ConfigError([{
    field: '--run',
    message: `run ${entry.runId} is no longer in ${store.url} (deleted while this worker worked on it?); this worker finished ${entry.done} trial(s) of it, ${entry.failed} failed. List the runs with: ${commandHint(['runs'], store.url)}`,
  }]);
}

export async function runWorker(o: WorkerOptions): Promise<WorkerSummary> {
  const summary: WorkerSummary = { runs: [] };
  const stopped = () => Boolean(o.stopSignal?.aborted || o.signal?.aborted);
  if (o.runId && !(await o.store.getRun(o.runId))) {
    throw new ConfigError([{ field: '--run', message: `no run "${o.runId}" in ${o.store.url}; list runs with: ${commandHint(['runs'], o.store.url)}` }]);
  }
  const finished = new Set<string>();
  for (;;) {
    const one = o.runId ? await o.store.getRun(o.runId) : undefined;
    const runs = o.runId ? (one ? [one] : []) : (await o.store.listRuns()).filter(r => r.status === 'running' || r.status === 'stopped');
    for (const run of runs.filter(r => !finished.has(r.id))) {
      if (stopped()) break;
      const entry = summary.runs.find(r => r.runId === run.id) ?? summary.runs[summary.runs.push({ runId: run.id, done: 0, failed: 0, batches: 0 }) - 1]!;
      const end = await workOn(run, entry, o);
      if (end === 'deleted') {
        entry.deleted = true;
        if (o.runId) throw goneError(o.store, entry);
      }
      if (end !== 'waiting') finished.add(run.id);
      // Failed trials stay failed until asked again: said for the run, whichever worker failed them.
      if (end === 'finished') entry.runFailed = (await o.store.countTrialStatuses(run.id)).filter(c => c.status === 'failed').reduce((n, c) => n + c.trials, 0);
    }
    if (o.runId && !one) throw goneError(o.store, summary.runs[0] ?? { runId: o.runId, done: 0, failed: 0, batches: 0 });
    // With --follow a worker waits for new runs; runs it finished stay finished.
    if (stopped() || (!runs.some(r => !finished.has(r.id)) && !o.follow)) return summary;
    await sleep(o.pollMs ?? 500, o.stopSignal);
  }
}

type End = 'finished' | 'stopped' | 'waiting' | 'deleted';

/** Batches of one run until the queue has nothing this worker could take. */
async function workOn(run: RunRecord, entry: WorkerSummary['runs'][number], o: WorkerOptions): Promise<End> {
  const config = await configOf(o.store, run, o);
  // Each batch is a session that reads the run's plan again: a large run takes larger batches
  // (about 1/50 of it), so that reading stays small beside the calls.
  let batch = o.batch ?? Math.max(64, 16 * (o.concurrency ?? ((config as { concurrency?: number }).concurrency ?? 8)));
  for (;;) {
    if (o.stopSignal?.aborted || o.signal?.aborted) return 'stopped';
    // Deleted (`paideia runs delete --force`): started again from its config it would fail as a
    // resume of nothing, or (a scenario, a study) be planned anew.
    if (!(await o.store.getRun(run.id))) return 'deleted';
    const view = batchView(o.store, run.id, () => batch);
    const handle = startRun(config, { store: view.store, keepConfig: false, ...(o.signal ? { signal: o.signal } : {}), ...(o.env ? { env: o.env } : {}) });
    handle.on(e => {
      if (e.type === 'trial') entry[e.status]++;
      if (e.type === 'planned' && o.batch === undefined) batch = Math.max(batch, Math.ceil(e.trials / 50));
      if (e.type === 'stop' && e.reason === 'unreachable' && e.endpoint !== undefined) entry.unreachable = { endpoint: e.endpoint, error: e.error ?? '' };
      o.onEvent?.(run.id, e);
    });
    const offStop = forward(o.stopSignal, () => handle.stop());
    let outcome: RunOutcome | undefined;
    try {
      outcome = await handle.done;
    } catch (error) {
      if (!(await o.store.getRun(run.id))) return 'deleted';
      // Every open trial is held by another worker (or waits for a judged trial): not an error here.
      if (!(error instanceof ConfigError && view.asked && view.claimed.length === 0)) throw error;
    } finally {
      offStop();
    }
    if (outcome && view.claimed.length > 0) entry.batches++;
    if (outcome?.stoppedBy && outcome.stoppedBy !== 'claim-lost') {
      entry.stoppedBy = outcome.stoppedBy;
      if (outcome.stoppedBy === 'cost-cap') {
        entry.cap = { capUsd: (config as { costCapUsd?: number }).costCapUsd, spentUsd: outcome.spentUsd, ...(outcome.refusedUsd !== undefined ? { refusedUsd: outcome.refusedUsd } : {}) };
      }
      return 'stopped';
    }
    if (!view.asked) return 'finished';
    if (view.claimed.length > 0) continue;
    // Nothing to take now: other workers hold the rest (it comes back if they die), or only judges
    // of failed trials are left; with nobody else on the run, one plain session ends it properly.
    if ((await o.store.listClaimHolders(run.id)).length > 0) return 'waiting';
    return finish(run, config, o);
  }
}

/** Close a run nobody works on: the run kind itself decides its status (blocked judges included). */
async function finish(run: RunRecord, config: RunConfig, o: WorkerOptions): Promise<End> {
  try {
    await startRun(config, { store: o.store, keepConfig: false, ...(o.env ? { env: o.env } : {}) }).done;
    return 'finished';
  } catch (error) {
    if (!(await o.store.getRun(run.id))) return 'deleted';
    if (error instanceof ConfigError && /is being run by process/.test(error.message)) return 'waiting';
    throw error;
  }
}

function forward(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) fn();
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}
