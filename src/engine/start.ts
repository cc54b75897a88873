import { saveRunConfig } from './run-config.js';
import { ConfigError, type ConfigIssue, type Env, type RunEvent, type RunKind, type RunOutcome, type Store } from '../core/index.js';

/** A started run: its event stream, its end, and the two ways to stop it. */
export interface RunHandle {
  /**
   * A new reader of the stream: the run's `planned` and `start` events if they are past, then
   * every event from now on (buffered for this reader until it takes them).
   */
  events(): AsyncIterableIterator<RunEvent>;
  /** Subscribe a listener (the CLI's progress bar); returns the unsubscribe. */
  on(listener: (event: RunEvent) => void): () => void;
  /** The run id, once the run is planned. */
  readonly runId: Promise<string>;
  /** The run's outcome (rejects with the error that stopped it, e.g. a ConfigError). */
  readonly done: Promise<RunOutcome>;
  /** Start no new call; calls in flight finish and are stored. */
  stop(): void;
  /** Abort calls in flight too (they stay pending for a resume). */
  abort(): void;
}

export interface StartOptions {
  store: Store;
  /** Aborting it aborts the run (calls in flight included). */
  signal?: AbortSignal;
  env?: Env;
  /** Which files an input names may be read (RunContext.readable); default any. */
  readable?: (path: string) => string | undefined;
  /**
   * Store the run's resume config when it is planned (default true: the whole config). A worker
   * joins a run with its own concurrency: that must not change how the run's other sessions
   * continue it (false). `{ update }`: a run that keeps a config already changes only those keys
   * (the settings a resume was given on the command line); a new run keeps the whole config.
   */
  keepConfig?: boolean | { update: ReadonlyArray<string> };
}

/**
 * The library's way to run anything: a config of any registered kind (checked by its zod schema,
 * every problem reported at once), run by that kind over one store, with one typed event stream
 * that the CLI and the web app both consume.
 */
/** A run config's shape problems (zod's), each at its field's dot-path; `(config)` for the config as a whole. */
export function configShapeIssues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): ConfigIssue[] {
  return error.issues.map(i => ({ field: i.path.map(String).join('.') || '(config)', message: i.message }));
}

export function startRunWith(kinds: ReadonlyArray<RunKind>, config: unknown, o: StartOptions): RunHandle {
  const kindName = (config as { kind?: unknown } | null)?.kind;
  const kind = kinds.find(k => k.name === kindName);
  const abort = new AbortController();
  const drain = new AbortController();
  // The caller's signal may outlive many runs (a worker starts one per batch on one signal): the
  // listener goes once this run has settled, so runs do not pile up listeners on it.
  const onAbort = () => abort.abort();
  if (o.signal) {
    if (o.signal.aborted) abort.abort();
    else o.signal.addEventListener('abort', onAbort, { once: true });
  }
  // Only the opening events are kept for late readers: a long run's trial events are not held.
  const opening: RunEvent[] = [];
  const listeners = new Set<(e: RunEvent) => void>();
  let settled = false;
  const wakers = new Set<() => void>();
  let resolveId!: (id: string) => void;
  let rejectId!: (e: unknown) => void;
  const runId = new Promise<string>((resolve, reject) => { resolveId = resolve; rejectId = reject; });
  runId.catch(() => undefined);
  // Set once the config is checked: the run keeps it the moment it is planned, so a resume by id
  // (or a worker) finds it even if this process is killed right after.
  let keepConfig: ((runId: string) => Promise<void>) | undefined;
  let kept: Promise<void> = Promise.resolve();
  const emit = (e: RunEvent) => {
    if (e.type === 'planned' || e.type === 'start') opening.push(e);
    if (e.type === 'planned') {
      resolveId(e.runId);
      if (keepConfig) {
        kept = keepConfig(e.runId);
        // Awaited when the run ends; until then a failed write must not count as unhandled.
        kept.catch(() => undefined);
      }
    }
    for (const l of listeners) l(e);
    for (const w of [...wakers]) w();
  };
  const done = (async () => {
    // Start on the next turn, so listeners attached right after startRun hear every event.
    await Promise.resolve();
    if (!kind) {
      throw new ConfigError([{ field: 'kind', message: `unknown run kind ${JSON.stringify(kindName)}; expected one of ${kinds.map(k => k.name).join(', ')}` }]);
    }
    const parsed = kind.configSchema.safeParse(config);
    if (!parsed.success) throw new ConfigError(configShapeIssues(parsed.error));
    if (o.keepConfig !== false) {
      const update = typeof o.keepConfig === 'object' ? o.keepConfig.update : undefined;
      keepConfig = runId => saveRunConfig(o.store, runId, kind.resumeConfig(parsed.data, runId), update);
    }
    let outcome: RunOutcome;
    try {
      outcome = await kind.start(parsed.data, {
        store: o.store, signal: abort.signal, stopSignal: drain.signal, onEvent: emit, ...(o.env ? { env: o.env } : {}), ...(o.readable ? { readable: o.readable } : {}),
      });
    } catch (error) {
      // The run's own failure is the one to report, whatever became of keeping its config.
      await kept.catch(() => undefined);
      throw error;
    }
    await kept;
    return outcome;
  })().finally(() => {
    o.signal?.removeEventListener('abort', onAbort);
    settled = true;
    for (const w of [...wakers]) w();
  });
  done.then(r => resolveId(r.runId), e => rejectId(e));
  const on = (listener: (e: RunEvent) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    runId,
    done,
    stop: () => drain.abort(),
    abort: () => abort.abort(),
    on,
    events() {
      const queue: RunEvent[] = [...opening];
      const unsubscribe = on(e => queue.push(e));
      const iterator: AsyncIterableIterator<RunEvent> = {
        [Symbol.asyncIterator]: () => iterator,
        async next() {
          while (queue.length === 0 && !settled) await new Promise<void>(resolve => wakers.add(function wake() { wakers.delete(wake); resolve(); }));
          if (queue.length) return { value: queue.shift()!, done: false };
          unsubscribe();
          return { value: undefined, done: true };
        },
        async return() {
          unsubscribe();
          return { value: undefined, done: true };
        },
      };
      return iterator;
    },
  };
}
