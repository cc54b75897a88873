import type { Env } from '../core/env.js';
import { PAIDEIA_VERSION } from '../core/version.js';
import { contentHash, type ChatModel, type PriceTable, type RunRecord, type StepKind, type Store, type Trial } from '../core/index.js';
import { executeTrials } from '../engine/execute.js';
import { DEFAULT_MAX_TOKENS } from '../engine/limits.js';
import { stopOf, type RunEvent, type StopReason } from '../engine/events.js';
import { stopNote } from '../engine/reachability.js';
import { pricedCosts, refuseCapWithoutPrices } from '../engine/pricing.js';
import { loadPriceTable } from '../providers/pricing.js';
import type { FetchFunction } from '../providers/shared/post-json.js';
import { DIALOGUE_KIND, SCENARIO_KIND, type DialogueMeta } from './dialogue.js';
import { DIALOGUE_STEP, dialogueStep, variantAlias } from './dialogue-step.js';
import { SCENARIO_JUDGE_STEP, aggregatePanels, planJudgeTrials, scenarioJudgeStep, type JudgeSummary } from './judge/index.js';
import { buildChatModel, modelIdentity, scenarioTimeoutHint } from './models.js';
import type { Scenario, ScenarioModel, ScenarioVariant } from './types.js';

/** Run kind of scenario runs. */
export const SCENARIO_RUN = 'scenario';


/** The engine's events; a scenario's `planned` also says how many dialogues and judgments it holds. */
export type ScenarioEvent = Exclude<RunEvent, { type: 'planned' }> | (Extract<RunEvent, { type: 'planned' }> & { dialogues: number; judgments: number });

export interface RunScenarioOptions {
  scenario: Scenario;
  store: Store;
  /** Dialogues per task; default globals.repeats. */
  repeats?: number;
  /** Start no new call; calls in flight finish and are stored (a first Ctrl-C). */
  stopSignal?: AbortSignal;
  /** Builds the model of a scenario entry; default: its provider, wrapped with globals.retry. Tests inject counting models. */
  createModel?: (model: ScenarioModel, variant: ScenarioVariant) => ChatModel;
  /** Network for the default models (tests point it at local servers). */
  fetch?: FetchFunction;
  /** Where the default models read provider variables (OPENAI_BASE_URL, ...). Default `process.env`. */
  env?: Env;
  /** Judge finished dialogues after running them (default true). */
  judge?: boolean;
  /** Continue failed dialogues from their failed turn (default false: a resume leaves them failed). */
  retryErrors?: boolean;
  prices?: PriceTable;
  /** Hard cap on the run's spend in USD (dialogue turns and judge calls, resumed sessions included). */
  costCapUsd?: number;
  signal?: AbortSignal;
  onEvent?: (event: ScenarioEvent) => void;
  /** Plan and store the run, call nothing (workers run it). */
  planOnly?: boolean;
  /** Per-attempt timeout in ms of the default models whose entry sets no kargs.timeout (`scenario run --timeout`). */
  timeoutMs?: number;
  /** Per model (and endpoint): requests and tokens per minute and calls in flight, across every worker of the store. */
  limits?: { requestsPerMinute?: number; tokensPerMinute?: number; maxInFlight?: number };
  /** Calls this process has going at once (a worker's `--concurrency`); default the file's `globals.concurrency`. */
  concurrency?: number;
}

export interface ScenarioRunSummary {
  runId: string;
  dialogues: number;
  ended: number;
  capped: number;
  failed: number;
  /** Not finished (interrupted); `--resume` continues them. */
  pending: number;
  /** Judgments still to make of dialogues that did not fail (a stopped run's included: its judges wait for the resume). */
  judgmentsPending: number;
  /** Judge trials stored as failed (provider errors), a stopped session's included: `--retry-errors` asks them again. */
  judgmentsFailed: number;
  /** Judgments: made in this session (`new`), found stored, unscored, failed and still to make. */
  judging?: JudgeSummary & { new: number; stored: number; failed: number; pending: number };
  stoppedBy?: StopReason;
  /** With `stoppedBy: 'cost-cap'`: the largest estimate of a call the cap refused. */
  refusedUsd?: number;
  spentUsd: number;
}

/** The trial naming rule: test `scenario:<name>`, model alias = the variant label (the target agent's model). */
export function scenarioTest(scenario: Scenario): string {
  return `scenario:${scenario.name}`;
}

/** Families given in the file (`models.<alias>.family`); the report's table covers the rest. */
function familiesOf(models: ReadonlyMap<string, ScenarioModel>): Record<string, string> {
  return Object.fromEntries([...models].filter(([, m]) => m.family !== undefined).map(([alias, m]) => [alias, m.family!]));
}

/** The run id is the hash of what the run is asked to do, so the same command resumes the same run. */
export function scenarioRunId(scenario: Scenario, repeats: number): string {
  const agentModels = agentAliases(scenario);
  return `scn-${contentHash({ scenario: scenario.hash, variants: scenario.variants.map(v => ({ label: v.label, models: modelIdentity(v.models, agentModels) })), repeats, seed: scenario.globals.seed }, 16)}`;
}

/**
 * The models the dialogues are made with (those of the agents). Judge-only models are not part of
 * a run's or a trial's identity: they belong to the judgment version (see judgmentVersion).
 */
function agentAliases(scenario: Scenario): Set<string> {
  return new Set([...scenario.agents.values()].map(a => a.model));
}

/** Trials = variant x task x repeat, in that order; ids are content hashes. */
export function planScenarioTrials(scenario: Scenario, runId: string, repeats: number): Trial[] {
  const trials: Trial[] = [];
  for (const variant of scenario.variants) {
    const identity = modelIdentity(variant.models, agentAliases(scenario));
    const targetModel = variant.models.get(scenario.agents.get(scenario.target)!.model)!;
    for (const task of scenario.tasks) {
      for (let repeat = 0; repeat < repeats; repeat++) {
        const id = contentHash({ scenario: scenario.hash, task: task.hash, models: identity, repeat, seed: scenario.globals.seed });
        trials.push({
          id, runId, index: trials.length, itemId: task.id, itemHash: task.hash, test: scenarioTest(scenario),
          modelAlias: variant.label, modelSpec: targetModel.spec.spec, promptVersion: scenario.hash, repeat, seed: scenario.globals.seed,
          kind: DIALOGUE_STEP, variant: 'default',
        });
      }
    }
  }
  return trials;
}

/**
 * Run every dialogue of a scenario as a walk of its graph from START to END, then judge the
 * finished dialogues: dialogue turns and judge calls are all trials of one engine run, every call
 * stored the moment it returns and counted by one cost cap. Stored turns are replayed, never
 * asked again, so a killed run resumes where it stopped.
 */
export async function runScenario(o: RunScenarioOptions): Promise<{ run: RunRecord; summary: ScenarioRunSummary }> {
  const { scenario, store } = o;
  const repeats = o.repeats ?? scenario.globals.repeats;
  const runId = scenarioRunId(scenario, repeats);
  const prices = o.prices ?? safePrices();
  const now = new Date().toISOString();
  const specs = scenario.variants.flatMap(v => [...v.models.values()].map(m => ({ ...m.spec, alias: variantAlias(scenario, v, m.alias) })));
  const build = o.createModel ?? ((m: ScenarioModel) => buildChatModel(m, {
    retry: scenario.globals.retry, ...(o.fetch ? { fetch: o.fetch } : {}), ...(o.env ? { env: o.env } : {}), ...(o.limits ? { limits: { store, ...o.limits } } : {}),
    ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}), timeoutHint: scenarioTimeoutHint(scenario.file, m),
  }));
  const models = new Map<string, ChatModel>();
  for (const v of scenario.variants) for (const m of v.models.values()) models.set(variantAlias(scenario, v, m.alias), build(m, v));
  refuseCapWithoutPrices(prices, specs.map(m => ({ spec: m, endpoint: models.get(m.alias)?.endpoint })), o.costCapUsd);
  const baselines = [...models].filter(([, m]) => m.isBaseline).map(([alias]) => alias);
  // Endpoints are part of the cache key; stored so rescore knows them without building models.
  const endpoints = Object.fromEntries([...models].flatMap(([alias, m]) => (m.endpoint ? [[alias, m.endpoint]] : [])));
  const run = await store.openRun({
    id: runId, kind: SCENARIO_RUN, createdAt: now, updatedAt: now, status: 'running', prices, paideiaVersion: PAIDEIA_VERSION,
    config: {
      suites: [scenario.file], itemHashes: scenario.tasks.map(t => t.hash).sort(), models: specs,
      repeats, seed: scenario.globals.seed, params: {}, tests: [scenarioTest(scenario)], ...(baselines.length ? { baselines } : {}),
      ...(Object.keys(endpoints).length ? { endpoints } : {}),
      // Every request carries a max_tokens (a model's own params win), so the cap reserves its worst case.
      maxTokens: DEFAULT_MAX_TOKENS,
    },
  });
  const dialogues = planScenarioTrials(scenario, runId, repeats);
  const judges = o.judge === false ? [] : planJudgeTrials(scenario, dialogues);
  const trials = [...dialogues, ...judges];
  await store.saveTrials(trials);
  await store.putArtifact(runId, SCENARIO_KIND, 'config', JSON.parse(JSON.stringify({
    name: scenario.name, file: scenario.file, hash: scenario.hash, target: scenario.target,
    evaluationVersion: scenario.evaluation?.version ?? null, config: scenario.redacted,
    variants: scenario.variants.map(v => ({ label: v.label, models: modelIdentity(v.models), families: familiesOf(v.models) })),
    tasks: scenario.tasks, warnings: scenario.warnings,
  })));
  await store.setRunStatus(runId, 'running');
  o.onEvent?.({ type: 'planned', runId, kind: SCENARIO_RUN, trials: trials.length, dialogues: dialogues.length, judgments: judges.length });
  if (o.planOnly) {
    // Left for workers: stopped (resumable), nothing called, as a plan-only suite run. Left
    // "running", the listing showed it as under way, and later as interrupted.
    await store.setRunStatus(runId, 'stopped', 'planned; waiting for workers');
    return { run: { ...run, status: 'stopped' }, summary: { runId, dialogues: dialogues.length, ended: 0, capped: 0, failed: 0, pending: dialogues.length, judgmentsPending: judges.length, judgmentsFailed: 0, spentUsd: 0 } };
  }

  const steps = scenarioSteps(scenario);
  let judgedNow = 0;
  const summary = await executeTrials({
    store, runId, trials, stepOf: steps, models,
    identityOf: alias => ({ spec: specs.find(s => s.alias === alias)!.spec, endpoint: models.get(alias)?.endpoint }),
    // The table stored with the run: a resumed run, or a worker's session, prices as it was planned.
    cost: pricedCosts(run.prices, specs, alias => models.get(alias)?.endpoint),
    // The stored run's: a run stored before max_tokens defaults existed keeps sending none.
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}), ...(o.costCapUsd !== undefined ? { costCapUsd: o.costCapUsd } : {}),
    // Dialogues and judges share the scenario's concurrency, as one pool.
    poolOf: () => ({ name: 'scenario', size: o.concurrency ?? scenario.globals.concurrency }),
    retryErrors: o.retryErrors ?? false,
    ...(o.signal ? { signal: o.signal } : {}), ...(o.stopSignal ? { stopSignal: o.stopSignal } : {}),
    onEvent: e => {
      if (e.type === 'trial' && e.status === 'done' && e.trial.kind === SCENARIO_JUDGE_STEP) judgedNow++;
      // The engine never plans: `planned` came from here, with the scenario's counts.
      if (e.type !== 'planned') o.onEvent?.(e);
    },
  });
  const statuses = await store.listTrialStatuses(runId);
  const metas = new Map((await store.listArtifacts(runId, DIALOGUE_KIND)).map(a => [a.key, a.value as unknown as DialogueMeta]));
  const counts = { ended: 0, capped: 0, failed: 0, pending: 0 };
  for (const d of dialogues) {
    const status = statuses.get(d.id) ? metas.get(d.id)?.status ?? 'running' : 'running';
    if (status === 'running') counts.pending++;
    else counts[status]++;
  }
  const judging = Boolean(scenario.evaluation && o.judge !== false);
  const judgmentsPending = judging ? judges.filter(t => !statuses.has(t.id) && statuses.get(t.target!) !== 'failed').length : 0;
  const judgmentsFailed = judging ? judges.filter(t => statuses.get(t.id) === 'failed').length : 0;
  const out: ScenarioRunSummary = { runId, dialogues: dialogues.length, ...counts, judgmentsPending, judgmentsFailed, spentUsd: summary.spentUsd };
  // A stopped run is judged (and its panels aggregated) when it is resumed to the end.
  if (judging && !summary.stoppedBy) {
    const judged = await aggregatePanels(store, runId, scenario);
    out.judging = { ...judged, new: judgedNow, stored: judged.judgments - judgedNow, failed: judgmentsFailed, pending: judges.filter(t => !statuses.has(t.id) && statuses.get(t.target!) === 'done').length };
  }
  Object.assign(out, stopOf(summary));
  const unfinished = summary.stoppedBy !== undefined || summary.pending > 0;
  const status = unfinished ? 'stopped' : 'completed';
  const failures = counts.failed + judgmentsFailed;
  await store.setRunStatus(runId, status, summary.stoppedBy ? stopNote(summary, o.costCapUsd) : failures > 0 ? `${counts.failed} dialogue(s) failed, ${judgmentsFailed} judge call(s) failed` : undefined);
  return { run: { ...run, status }, summary: out };
}

/** Every model spec a scenario binds, in every swept variant (agents and judges). */
export function scenarioSpecs(scenario: Scenario): string[] {
  return scenario.variants.flatMap(v => [...v.models.values()].map(m => m.spec.spec));
}

/** The step kinds of a scenario run: dialogues, and judges when the file has an evaluation. */
export function scenarioSteps(scenario: Scenario): (t: Trial) => StepKind {
  const steps = new Map<string, StepKind>([[DIALOGUE_STEP, dialogueStep(scenario)]]);
  if (scenario.evaluation) steps.set(SCENARIO_JUDGE_STEP, scenarioJudgeStep(scenario));
  return t => steps.get(t.kind ?? DIALOGUE_STEP)!;
}

function safePrices(): PriceTable {
  try {
    return loadPriceTable();
  } catch {
    return { source: 'none', date: '', models: {} };
  }
}
