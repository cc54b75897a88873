import type { z } from 'zod';
import type { Env } from './env.js';
import type { RunEvent, StopReason } from './run-event.js';
import type { Store } from './store.js';

/** What a kind of run reports when it ends: the counts every consumer (CLI, web app) shows. */
export interface RunOutcome {
  runId: string;
  status: 'completed' | 'stopped' | 'failed';
  /** Trials finished, failed (provider errors, never scored as wrong) and still to run. */
  done: number;
  failed: number;
  pending: number;
  spentUsd: number;
  stoppedBy?: StopReason;
  /** With `stoppedBy: 'cost-cap'`: the largest estimate of a call the cap refused, so a hint can name a cap that lets the run go on. */
  refusedUsd?: number;
}

/** What a run kind is given to start a run. */
export interface RunContext {
  store: Store;
  /** Aborts calls in flight (a second Ctrl-C); they stay pending for a resume. */
  signal?: AbortSignal;
  /** Starts no new call; calls in flight finish and are stored (a first Ctrl-C, the web app's "stop"). */
  stopSignal?: AbortSignal;
  /** Where providers read their variables (keys, base URLs); default `process.env`. */
  env?: Env;
  /** Every event as it happens; the run id comes first, with `planned`. */
  onEvent(event: RunEvent): void;
  /**
   * Whether a file an input names may be read (a scenario's script or task file, named inside the
   * scenario): undefined if so, else why not. Default: any file (the web app allows its folders only).
   */
  readable?: (path: string) => string | undefined;
}

/**
 * A kind of run (`suite`, `scenario`, ...): its config as a zod schema (the web app builds a run
 * from it without the CLI) and how to start one. Shared code finds a kind by the name a config
 * or a stored run carries, never by asking what it holds.
 */
export interface RunKind<Config extends { kind: string } = { kind: string }> {
  readonly specVersion: 'paideia.run-kind.v1';
  /** The `kind` of its configs and of the runs it stores. */
  readonly name: Config['kind'];
  readonly configSchema: z.ZodType<Config>;
  start(config: Config, context: RunContext): Promise<RunOutcome>;
  /**
   * The config that continues a run started with `config`, from any directory and with nothing
   * planned twice (paths absolute, no plan-only). The engine stores it with the run when the run is
   * planned; `paideia run --resume ID` and `paideia worker` start the run again from it.
   */
  resumeConfig(config: Config, runId: string): Config;
}
