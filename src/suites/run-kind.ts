import { resolve } from 'node:path';
import { z } from 'zod';
import { filePath } from '../core/config/file-path.js';
import { ConfigError, parseModelSpec, type ChatParams, type ModelSpec, type RunContext, type RunKind, type RunOutcome } from '../core/index.js';
import { buildModels, timeoutFlagHint } from '../engine/models.js';
import { runEndpoints } from '../engine/endpoints.js';
import { stopOf } from '../engine/events.js';
import { refuseCapWithoutPrices, unpricedSpecs } from '../engine/pricing.js';
import { HTTP_PROVIDERS } from '../providers/index.js';
import { checkBaseUrl } from '../providers/shared/base-url.js';
import { loadPriceTable, priceFor, unpricedReason } from '../providers/pricing.js';
import { builtInScorers } from '../scoring/builtins.js';
import { judgeSpecs, judgingConfig, loadJudgingConfig } from './judging/config.js';
import type { JudgingSummary } from './judging/aggregate.js';
import { SUITE_RUN, runSuite } from './run.js';
import { BUILT_IN_TESTS } from './tests/index.js';

/** A suite run as a library user, the CLI or the web app describes it. */
export const SuiteRunConfigSchema = z.strictObject({
  kind: z.literal(SUITE_RUN),
  /** Item files or suite folders. */
  suites: z.array(filePath()).default([]),
  /** Model specs, `alias=provider:model` allowed. */
  models: z.array(z.string().min(1)).default([]),
  repeats: z.number().int().min(1).max(1000).default(3),
  seed: z.number().int().min(0).default(20261129),
  tests: z.array(z.string().min(1)).min(1).optional(),
  temperature: z.number().min(0).optional(),
  maxTokens: z.number().int().min(1).optional(),
  costCapUsd: z.number().min(0).optional(),
  /** A price table file (Paideia's format or OpenRouter's models list); default the shipped one. */
  prices: filePath().optional(),
  useCache: z.boolean().default(true),
  retryErrors: z.boolean().default(false),
  /** Continue this stored run as it was planned. */
  resume: z.string().min(1).optional(),
  /** Plan and store the run, call nothing: `paideia worker` processes run it (from the config stored with it). */
  planOnly: z.boolean().default(false),
  concurrency: z.number().int().min(1).default(8),
  requestsPerMinute: z.number().int().min(1).optional(),
  /** Input + output tokens per minute per model (with requestsPerMinute), shared by every worker of the store. */
  tokensPerMinute: z.number().int().min(1).optional(),
  /** Calls in flight per model across every worker of the store (`concurrency` is per process). */
  maxInFlight: z.number().int().min(1).optional(),
  maxAttempts: z.number().int().min(1).default(5),
  timeoutMs: z.number().int().min(1).optional(),
  baseUrl: z.string().min(1).optional(),
  /**
   * Base URLs of single models or judges by alias (any provider that is called over HTTP). On a
   * resume they move the remaining trials of those models there, as `baseUrl` does for openai: ones.
   */
  endpoints: z.record(z.string().min(1), z.string().min(1)).optional(),
  script: filePath().optional(),
  /** Two explanation judges of different families (`alias=provider:model`). */
  judges: z.array(z.string().min(1)).optional(),
  judgeFamilies: z.array(z.string().min(1)).optional(),
  judgeBaseUrl: z.string().min(1).optional(),
});

export type SuiteRunConfig = z.input<typeof SuiteRunConfigSchema>;

/** A suite run's outcome: the engine's counts and, with judges, the explanation counts. */
export interface SuiteRunOutcome extends RunOutcome {
  /**
   * Judge trials that wait for a failed trial they judge: not pending (a plain resume does not
   * run them), they run on the resume that retries their target (`--retry-errors`).
   */
  waiting: number;
  explanations?: JudgingSummary & { judges: string[] };
}

/**
 * Start (or resume) a suite run from its config: prices, models and judges built, every check
 * that would make a run fail later made first (a cost cap on an unpriced model is refused), then
 * items x models x repeats and their judges through the engine.
 */
export async function startSuiteRun(input: z.output<typeof SuiteRunConfigSchema>, ctx: RunContext): Promise<SuiteRunOutcome> {
  const c = input;
  const { store } = ctx;
  const warn = (message: string) => ctx.onEvent({ type: 'warning', message });
  const specs = c.models.map(m => parseModelSpec(m, { field: 'models' }));
  // Both said at once: a form left empty learns of each in one answer.
  const missing = [
    ...(!c.resume && specs.length === 0 ? [{ field: '--model', message: 'name at least one model, e.g. --model baseline:gold --model openai:gpt-4.1-mini' }] : []),
    ...(!c.resume && c.suites.length === 0 ? [{ field: 'suites', message: 'name at least one item file or folder, e.g. data/samples/irish' }] : []),
  ];
  if (missing.length) throw new ConfigError(missing);
  const dup = specs.map(s => s.alias).find((a, i, all) => all.indexOf(a) !== i);
  if (dup) throw new ConfigError([{ field: '--model', message: `model alias "${dup}" is used twice; give one an alias: name=${dup}` }]);
  if (!c.judges?.length && c.judgeFamilies?.length) throw new ConfigError([{ field: '--judge-family', message: 'only means something with two --judge flags' }]);
  const flagJudging = c.judges?.length ? judgingConfig(c.judges, c.judgeFamilies ?? [], specs) : undefined;
  // A malformed endpoint is the problem to tell, before any warning about prices.
  if (c.baseUrl !== undefined) checkBaseUrl(c.baseUrl, '--base-url');
  if (c.judgeBaseUrl !== undefined) checkBaseUrl(c.judgeBaseUrl, '--judge-base-url');
  const params: ChatParams = {
    ...(c.temperature !== undefined ? { temperature: c.temperature } : {}), ...(c.maxTokens !== undefined ? { maxTokens: c.maxTokens } : {}),
  };
  const prices = loadPriceTable(c.prices);
  const stored = c.resume ? await store.getRun(c.resume) : undefined;
  const table = stored?.prices ?? prices;
  const unpriced = unpricedSpecs(table, [...(stored?.config.models ?? specs), ...(flagJudging ? judgeSpecs(flagJudging) : [])].map(m => m.spec));
  if (unpriced.length && c.costCapUsd === undefined) warn(`no price for ${unpriced.join(', ')}; their cost is reported as unknown, not $0 (give --prices FILE to price them)`);
  const env = ctx.env;
  // `paideia run --timeout` sets timeoutMs, on a new run and on a resume alike.
  const timeoutHint = timeoutFlagHint('run');
  // A resume calls each model where the run called it last, except that --base-url moves the
  // openai: models (the ones it names) there for the remaining trials.
  const ends = stored ? (await runEndpoints(store, stored.id, stored.config.endpoints)).current : undefined;
  const storedEndpoints = ends && keptEndpoints(ends, stored!.config.models, c.baseUrl);
  // Judges are models of the run too: their calls go through the same engine, cache and cap.
  const judging = flagJudging ?? (stored ? await loadJudgingConfig(store, stored.id) : undefined);
  const named = namedEndpoints(c.endpoints, stored?.config.models ?? specs, judging ? judgeSpecs(judging) : []);
  const modelEndpoints = { ...storedEndpoints, ...named };
  const models = await buildModels(stored?.config.models ?? specs, {
    ...(Object.keys(modelEndpoints).length ? { endpoints: modelEndpoints } : {}), ...(env ? { env } : {}),
    store, seed: c.seed, maxAttempts: c.maxAttempts, ...(c.baseUrl ? { baseURL: c.baseUrl } : {}), ...(c.script ? { scriptFile: c.script } : {}),
    ...(c.requestsPerMinute ? { requestsPerMinute: c.requestsPerMinute } : {}), ...(c.tokensPerMinute ? { tokensPerMinute: c.tokensPerMinute } : {}), ...(c.maxInFlight ? { maxInFlight: c.maxInFlight } : {}), ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}), timeoutHint,
  });
  for (const spec of stored?.config.models ?? specs) {
    const endpoint = models.get(spec.alias)?.endpoint;
    if (!endpoint || !priceFor(table, spec)) continue;
    const why = unpricedReason(table, spec, { endpoint });
    if (why) warn(`${why}; its cost is reported as unknown`);
  }
  if (judging) {
    const judgeEnds = !flagJudging && judging.endpoints && stored ? (await runEndpoints(store, stored.id, judging.endpoints)).current : undefined;
    const kept = judgeEnds && keptEndpoints(judgeEnds, judgeSpecs(judging), c.judgeBaseUrl ?? c.baseUrl);
    const judgeEndpoints = kept || Object.keys(named).length ? { ...kept, ...named } : undefined;
    const judges = await buildModels(judgeSpecs(judging), {
      store, seed: c.seed, maxAttempts: judging.maxAttempts, ...(env ? { env } : {}),
      ...(c.judgeBaseUrl ?? c.baseUrl ? { baseURL: (c.judgeBaseUrl ?? c.baseUrl)! } : {}),
      ...(c.requestsPerMinute ? { requestsPerMinute: c.requestsPerMinute } : {}), ...(c.tokensPerMinute ? { tokensPerMinute: c.tokensPerMinute } : {}), ...(c.maxInFlight ? { maxInFlight: c.maxInFlight } : {}), ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}), timeoutHint,
      ...(judgeEndpoints ? { endpoints: judgeEndpoints } : flagJudging || !judging.endpoints ? {} : { endpoints: judging.endpoints }),
    });
    for (const [alias, m] of judges) models.set(alias, m);
  }
  const called = [...(stored?.config.models ?? specs), ...(judging ? judgeSpecs(judging) : [])];
  refuseCapWithoutPrices(table, called.map(m => ({ spec: m, endpoint: models.get(m.alias)?.endpoint })), c.costCapUsd);
  const { run, summary, judging: judged } = await runSuite({
    store, suites: c.suites, models: specs, repeats: c.repeats, seed: c.seed, params, ...(c.tests ? { tests: c.tests } : {}),
    testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel: spec => models.get(spec.alias)!, prices,
    ...(c.costCapUsd !== undefined ? { costCapUsd: c.costCapUsd } : {}), useCache: c.useCache, retryErrors: c.retryErrors,
    ...(c.resume ? { resumeRunId: c.resume } : {}), moveEndpoints: !c.resume || c.baseUrl !== undefined || c.judgeBaseUrl !== undefined || Object.keys(named).length > 0, ...(flagJudging ? { judging: flagJudging } : {}), planOnly: c.planOnly,
    concurrency: provider => (provider === 'baseline' || provider === 'replay' ? Math.max(c.concurrency, 16) : c.concurrency),
    ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.stopSignal ? { stopSignal: ctx.stopSignal } : {}), onEvent: ctx.onEvent,
  });
  return {
    runId: run.id, status: run.status === 'running' ? 'stopped' : run.status, done: summary.done, failed: summary.failed, pending: summary.pending,
    waiting: summary.blocked,
    spentUsd: summary.spentUsd, ...stopOf(summary),
    ...(judged ? { explanations: { ...judged, judges: judged.config.judges.map(j => j.alias) } } : {}),
  };
}

/** The stored endpoints a resume keeps: all but those of the openai: models a --base-url given now moves. */
function keptEndpoints(current: Record<string, string>, models: ReadonlyArray<{ alias: string; provider: string }>, baseUrl: string | undefined): Record<string, string> {
  if (!baseUrl) return current;
  const moved = new Set(models.filter(m => m.provider === 'openai').map(m => m.alias));
  return Object.fromEntries(Object.entries(current).filter(([alias]) => !moved.has(alias)));
}

/**
 * `--endpoint alias=URL` checked against the run's models and judges: the alias must name one,
 * and one that is called over HTTP (a baseline or a replay has no endpoint to move).
 */
function namedEndpoints(given: Readonly<Record<string, string>> | undefined, models: ReadonlyArray<ModelSpec>, judges: ReadonlyArray<ModelSpec>): Record<string, string> {
  const out: Record<string, string> = {};
  const all = [...models, ...judges];
  for (const [alias, url] of Object.entries(given ?? {})) {
    const spec = all.find(m => m.alias === alias);
    if (!spec) throw new ConfigError([{ field: '--endpoint', message: `no model or judge "${alias}" in this run; its aliases are ${all.map(m => m.alias).join(', ')}` }]);
    if (!HTTP_PROVIDERS.has(spec.provider)) throw new ConfigError([{ field: '--endpoint', message: `${alias} is ${spec.spec}, which is not called over HTTP; only openai:, anthropic: and ollama: models have an endpoint` }]);
    out[alias] = checkBaseUrl(url, '--endpoint');
  }
  return out;
}

/** Item suites as a kind of run. */
export const suiteRunKind: RunKind<z.output<typeof SuiteRunConfigSchema>> = {
  specVersion: 'paideia.run-kind.v1',
  name: SUITE_RUN,
  configSchema: SuiteRunConfigSchema as unknown as z.ZodType<z.output<typeof SuiteRunConfigSchema>>,
  start: startSuiteRun,
  // The stored run holds the plan, its models and judges; what continues it is its cap,
  // concurrency and call options (the price table is stored with the run).
  resumeConfig: (c, runId) => ({
    ...c, suites: [], models: [], judges: undefined, judgeFamilies: undefined, prices: undefined, planOnly: false, resume: runId,
    ...(c.script ? { script: resolve(c.script) } : {}),
  }),
};
