import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, RunHeldError, type Env, type JsonObject, type RunEvent, type RunOutcome, type Store } from '../core/index.js';
import { startRun, type RunConfig } from '../runs.js';
import type { RunHandle } from '../engine/start.js';
import { loadRunConfig } from '../engine/run-config.js';

/**
 * Where the web app kept the config it started a run with before every run kept its own
 * (engine/run-config.ts); runs launched then still resume from it.
 */
const LAUNCH_ARTIFACT = 'web-launch';

/**
 * How long a launch or resume of a run whose session was asked to stop waits for its calls in
 * flight to finish before it is refused (a server that answers slowly can hold a drain for minutes).
 */
const DRAIN_WAIT_MS = 15_000;

/** The config that continues a stored run, whoever started it (CLI, web app, library), if it keeps one. */
export async function continueConfig(store: Store, runId: string): Promise<JsonObject | undefined> {
  const kept = await loadRunConfig(store, runId);
  if (kept) return kept as JsonObject;
  return (await store.listArtifacts(runId, LAUNCH_ARTIFACT)).find(a => a.key === 'config')?.value as JsonObject | undefined;
}

/** A run this server started: its handle, what it was started with and how it stands. */
export interface LiveRun {
  runId: string;
  config: JsonObject;
  /** The files the config names as it was launched, by absolute path: size and modification time (filesOf). */
  files: ReadonlyMap<string, string>;
  handle: RunHandle;
  /** Counts so far, from the event stream (a page that opens late starts from them). */
  progress: { total: number; done: number; failed: number; spentUsd: number; stopping: boolean };
  warnings: string[];
  outcome?: RunOutcome;
  error?: string;
}

/**
 * The runs started from the browser. A run is the engine's RunHandle: the page follows its event
 * stream and "stop" drains it; keys for its models come from the server's environment only.
 */
export class LiveRuns {
  private readonly runs = new Map<string, LiveRun>();

  /** `readable`: which files a run's inputs name may be read (RunContext.readable). */
  constructor(private readonly store: Store, private readonly env: Env, private readonly readable?: (path: string) => string | undefined) {}

  get(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  /** The session running the run now, if any (`get` keeps one that ended, for its page). */
  running(runId: string): LiveRun | undefined {
    const run = this.runs.get(runId);
    return run && goes(run) ? run : undefined;
  }

  /** Drop a finished run (it was deleted from the store): its progress and events go with it. */
  forget(runId: string): void {
    if (this.running(runId)) throw new ConfigError([{ field: 'run', message: `run ${runId} is still running; stop it first` }]);
    this.runs.delete(runId);
  }

  /**
   * Start a run; resolves with its id once planned, or rejects with the config's problems. A run
   * this server is running already (the same run id: the same files and settings, however the
   * config is written) is joined, not started again. The same config while its run goes, but with
   * a file of it changed since (a scenario saved again), is refused until that run ends: the edit
   * may keep the run id (a new judge prompt adds judgments to the same run), and two sessions of
   * one run here would leave the new work to neither.
   */
  async launch(config: JsonObject): Promise<LiveRun> {
    const files = filesOf(config);
    const same = [...this.runs.values()].find(r => goes(r) && JSON.stringify(r.config) === JSON.stringify(config));
    // A session that is stopping would end "stopped" whoever joined it: its drain ends first, then a new session goes on.
    if (same?.progress.stopping) {
      await this.drained(same);
      return this.launch(config);
    }
    if (same && sameFiles(same.files, files)) return same;
    // A resumed session's config (the one its run keeps) is written otherwise than the page's, yet
    // may be the same run: one reading a file of this launch that changed since refuses it too.
    const stale = same ?? [...this.runs.values()].find(r => goes(r) && r.config['resume'] !== undefined && r.config['kind'] === config['kind'] && changedSince(r.files, files));
    if (stale) {
      throw new ConfigError([{
        field: 'file',
        message: `a file of this launch changed since run ${stale.runId} started from it, and that run is still running here: stop it or wait for it to end, then launch again (or save the edit under another name to run both)`,
      }]);
    }
    const handle = startRun(config as unknown as RunConfig, { store: this.store, env: this.env, ...(this.readable ? { readable: this.readable } : {}) });
    const live: LiveRun = { runId: '', config, files, handle, progress: { total: 0, done: 0, failed: 0, spentUsd: 0, stopping: false }, warnings: [] };
    const early: RunEvent[] = [];
    const off = handle.on(e => (live.runId ? follow(live, e) : early.push(e)));
    // A config error ends the run before it is planned: report it instead of an id.
    const first = await Promise.race([handle.runId.then(id => ({ id })), handle.done.then(() => ({ id: undefined }), (e: unknown) => ({ error: e }))]);
    if ('error' in first) { off(); throw first.error; }
    live.runId = first.id ?? (await handle.runId);
    const running = this.running(live.runId);
    if (running) {
      // The running session holds the run's trials: this one is refused them by its claims and
      // ends having written nothing of the run's state (a stopped one would write "stopped").
      off();
      handle.done.catch(() => undefined);
      if (!running.progress.stopping) return running;
      // The same run written otherwise, while it drains: once this session and the drain ended, a new one.
      await handle.done.catch(() => undefined);
      await this.drained(running);
      return this.launch(config);
    }
    for (const e of early) follow(live, e);
    this.runs.set(live.runId, live);
    handle.done.then(o => { live.outcome = o; }, (e: unknown) => {
      // Another process runs it (the CLI, a worker): not this server's run to follow, and no
      // failure of it; its page says who runs it and follows the stored state.
      if (e instanceof RunHeldError && this.runs.get(live.runId) === live) this.runs.delete(live.runId);
      else live.error = e instanceof Error ? e.message : String(e);
    }).finally(off);
    return live;
  }

  /**
   * Start a stored run again from the config it keeps (CLI runs too): done trials are kept, the
   * rest run (with `retryErrors`, its failed trials too). `check` may refuse the config first (the
   * web app: files outside its folders).
   */
  async resume(runId: string, retryErrors = false, check?: (config: JsonObject) => void): Promise<LiveRun> {
    const live = this.running(runId);
    if (live) {
      if (!live.progress.stopping) return live;
      await this.drained(live);
    }
    const config = await continueConfig(this.store, runId);
    if (!config) throw new ConfigError([{ field: 'run', message: `run ${runId} was stored before runs kept the config they continue from; resume it with the command that started it` }]);
    check?.(config);
    return this.launch(retryErrors ? { ...config, retryErrors: true } : config);
  }

  /** Wait for a session asked to stop to end (DRAIN_WAIT_MS at most), else refuse: it is still finishing its calls. */
  private async drained(run: LiveRun): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      run.handle.done.then(() => true, () => true),
      new Promise<false>(resolve => { timer = setTimeout(resolve, DRAIN_WAIT_MS, false); }),
    ]).finally(() => clearTimeout(timer));
    if (!ended) {
      throw new ConfigError([{ field: 'run', message: `run ${run.runId} is stopping: its calls in flight finish first (their answers are stored); resume it once its page says it stopped` }]);
    }
  }

  /** Wait for every run this server started (used when it shuts down after asking them to stop). */
  async stopAll(): Promise<void> {
    for (const r of this.runs.values()) r.handle.stop();
    await Promise.allSettled([...this.runs.values()].map(r => r.handle.done));
  }
}

/** A session that has not ended (no outcome, no error). */
function goes(run: LiveRun): boolean {
  return !run.outcome && !run.error;
}

function follow(live: LiveRun, e: RunEvent): void {
  const p = live.progress;
  if (e.type === 'start') Object.assign(p, { total: e.total, done: e.done, failed: e.failed, spentUsd: e.spentUsd });
  else if (e.type === 'trial') {
    if (e.status === 'done') p.done += 1; else p.failed += 1;
    p.spentUsd = e.spentUsd;
  } else if (e.type === 'warning') live.warnings.push(e.message);
}

/**
 * The files a config names (a scenario file, a price table, the item files of a suite folder),
 * by absolute path (resolved as the run kinds resolve them, from the working folder): each
 * top-level string, or string in a list, that is a file or a folder, by the size and modification
 * time of its files (as make and rsync tell a change), at most a few thousand of them.
 */
function filesOf(config: JsonObject): Map<string, string> {
  const named = Object.values(config).flatMap(v => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []));
  const seen = new Map<string, string>();
  const walk = (path: string) => {
    if (seen.size > 5000) return;
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (stat.isFile()) seen.set(path, `${stat.size}\0${stat.mtimeMs}`);
    else if (stat.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  for (const path of named) walk(resolve(path));
  return seen;
}

const sameFiles = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) => a.size === b.size && [...a].every(([path, f]) => b.get(path) === f);

/** A file both read that is not as it was when the first was launched. */
const changedSince = (was: ReadonlyMap<string, string>, now: ReadonlyMap<string, string>) => [...now].some(([path, f]) => was.has(path) && was.get(path) !== f);
