import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { filePath } from '../core/config/file-path.js';
import { ConfigError, parseModelSpec, type RunContext, type RunKind, type RunOutcome } from '../core/index.js';
import { runPrices } from '../engine/pricing.js';
import { stopOf } from '../engine/events.js';
import { checkContinues } from '../engine/run-config.js';
import { loadScenario } from './load.js';
import { SCENARIO_RUN, runScenario, scenarioRunId, type ScenarioRunSummary } from './run.js';

/** A scenario run as a library user, the CLI or the web app describes it. */
export const ScenarioRunConfigSchema = z.strictObject({
  kind: z.literal(SCENARIO_RUN),
  /** The scenario file (ELMES YAML with Paideia's extensions). */
  file: filePath(),
  /** `alias=provider:model` overrides of the file's models; an alias given twice sweeps it. */
  models: z.array(z.string().min(1)).default([]),
  /** Dialogues per task; default the file's `globals.repeats`. */
  repeats: z.number().int().min(1).max(1000).optional(),
  judge: z.boolean().default(true),
  retryErrors: z.boolean().default(false),
  costCapUsd: z.number().min(0).optional(),
  /** A price table file; default the shipped one. */
  prices: filePath().optional(),
  /** Script for `baseline:script` overrides. */
  script: filePath().optional(),
  /** The endpoint of every openai model (`--base-url`); the file's keys are then never sent. */
  baseUrl: z.string().min(1).optional(),
  /** Requests per minute per model, shared by every worker of the store. */
  requestsPerMinute: z.number().int().min(1).optional(),
  /** Input + output tokens per minute per model (with requestsPerMinute), shared by every worker. */
  tokensPerMinute: z.number().int().min(1).optional(),
  /** Calls in flight per model across every worker of the store. */
  maxInFlight: z.number().int().min(1).optional(),
  /** Dialogue turns and judge calls this process has going at once; default the file's `globals.concurrency`. Not part of the run id. */
  concurrency: z.number().int().min(1).optional(),
  /** Per-attempt timeout in ms of every model whose file entry sets no `kargs.timeout` (that wins). Not part of the run id. */
  timeoutMs: z.number().int().min(1).optional(),
  /** Plan and store the run, call nothing: `paideia worker` processes run it (from the config stored with it). */
  planOnly: z.boolean().default(false),
  /** The stored run this config continues (set in the config a run keeps); refused if the file now describes another. */
  resume: z.string().min(1).optional(),
});

export type ScenarioRunConfig = z.input<typeof ScenarioRunConfigSchema>;

/** A scenario run's outcome: the engine's counts and the dialogue and judgment counts. */
export interface ScenarioRunOutcome extends RunOutcome {
  scenario: ScenarioRunSummary;
}

export async function startScenarioRun(c: z.output<typeof ScenarioRunConfigSchema>, ctx: RunContext): Promise<ScenarioRunOutcome> {
  // A run resumed by id calls each model where it did (its id names the endpoints), whatever this
  // shell's OPENAI_BASE_URL says, as rescore does; a --base-url given is checked against them.
  const stored = c.resume && !c.baseUrl ? (await ctx.store.getRun(c.resume))?.config.endpoints : undefined;
  const readable = ctx.readable;
  // A path the file names is read beside it, if the context allows reading it.
  const fileAt = readable ? (path: string) => { const at = resolve(dirname(resolve(c.file)), path); const why = readable(at); return why ? { refused: why } : at; } : undefined;
  const scenario = loadScenario(c.file, {
    models: c.models.map(m => parseModelSpec(m, { field: 'models' })), ...(ctx.env ? { env: ctx.env } : {}), ...(c.script ? { scriptFile: c.script } : {}),
    ...(fileAt ? { fileAt } : {}),
    ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}), ...(stored ? { endpointOf: (alias: string) => stored[alias] } : {}),
  });
  // A model with no key at a host that needs one would fail every call after its retries.
  if (scenario.keyIssues.length > 0) throw new ConfigError(scenario.keyIssues);
  for (const message of scenario.warnings) ctx.onEvent({ type: 'warning', message });
  const runId = scenarioRunId(scenario, c.repeats ?? scenario.globals.repeats);
  checkContinues(c.resume, runId, `the scenario ${c.file} with these models`);
  const prices = await runPrices(ctx.store, runId, c.prices);
  const { run, summary } = await runScenario({
    scenario, store: ctx.store, ...(c.repeats ? { repeats: c.repeats } : {}), judge: c.judge, retryErrors: c.retryErrors, prices,
    ...(c.costCapUsd !== undefined ? { costCapUsd: c.costCapUsd } : {}), ...(ctx.env ? { env: ctx.env } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.stopSignal ? { stopSignal: ctx.stopSignal } : {}),
    onEvent: e => ctx.onEvent(e.type === 'planned' ? { type: 'planned', runId: e.runId, kind: e.kind, trials: e.trials } : e),
    planOnly: c.planOnly, ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}), ...(c.concurrency ? { concurrency: c.concurrency } : {}),
    ...(c.requestsPerMinute || c.maxInFlight ? {
      limits: {
        ...(c.requestsPerMinute ? { requestsPerMinute: c.requestsPerMinute } : {}), ...(c.tokensPerMinute ? { tokensPerMinute: c.tokensPerMinute } : {}),
        ...(c.maxInFlight ? { maxInFlight: c.maxInFlight } : {}),
      },
    } : {}),
  });
  const failed = summary.failed + summary.judgmentsFailed;
  return {
    runId: run.id, status: run.status === 'running' ? 'stopped' : run.status, done: summary.ended + summary.capped, failed,
    pending: summary.pending + summary.judgmentsPending, spentUsd: summary.spentUsd,
    ...stopOf(summary), scenario: summary,
  };
}

/** Teaching scenarios as a kind of run. */
export const scenarioRunKind: RunKind<z.output<typeof ScenarioRunConfigSchema>> = {
  specVersion: 'paideia.run-kind.v1',
  name: SCENARIO_RUN,
  configSchema: ScenarioRunConfigSchema,
  start: startScenarioRun,
  // Paths absolute (a resume or a worker may start elsewhere: on another machine the files must be
  // at the same paths); the price table is the one stored with the run.
  resumeConfig: (c, runId) => ({ ...c, resume: runId, file: resolve(c.file), ...(c.script ? { script: resolve(c.script) } : {}), prices: undefined, planOnly: false }),
};
