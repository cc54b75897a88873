import { PAIDEIA_VERSION } from '../core/version.js';
import { commandHint } from '../core/command-hint.js';
import {
  ConfigError, contentHash, parseModelSpec, type ChatModel, type ChatParams, type ModelSpec, type PriceTable,
  type RunRecord, type StepKind, type Store, type TestDefinition, type Trial, type VersionedItem,
} from '../core/index.js';
import { executeTrials } from '../engine/execute.js';
import { concatSources, trialList, type TrialSource } from '../engine/trial-source.js';
import { loopTurns } from '../engine/loop-turns.js';
import { DEFAULT_MAX_TOKENS } from '../engine/limits.js';
import type { RunEvent, RunSummary } from '../engine/events.js';
import { pricedCosts } from '../engine/pricing.js';
import { stopNote } from '../engine/reachability.js';
import { moveEndpoint, runEndpoints, type RunEndpoints } from '../engine/endpoints.js';
import type { ScorerRegistry } from '../scoring/registry.js';
import { scoreExplanations, type JudgingSummary } from './judging/aggregate.js';
import { judgeSpecs, loadJudgingConfig, saveJudgingConfig, type JudgingConfig } from './judging/config.js';
import { EXPLANATION_JUDGE_STEP, explanationJudgeStep, planJudgeTrials } from './judging/judge-step.js';
import { itemShelf, type ItemShelf } from './item-shelf.js';
import { itemStep } from './item-step.js';
import { planItemFiles, storedPlanItems, unanswerableBy } from './plan-items.js';
import { ITEM_STEP, planTrialTable, type PlanItems } from './plan.js';

/** Run kind of item-suite runs. */
export const SUITE_RUN = 'suite';

export { DEFAULT_MAX_TOKENS };

export interface RunSuiteOptions {
  store: Store;
  /** Item files or folders; ignored when resuming (the stored items are used). */
  suites: string[];
  models: ModelSpec[];
  repeats: number;
  seed: number;
  params: ChatParams;
  /** Only these tests. */
  tests?: string[];
  testDefinitions: ReadonlyMap<string, TestDefinition>;
  scorers: ScorerRegistry;
  /** Builds a ready (wrapped) model for a spec, judges included; the CLI wires providers and middleware here. */
  createModel: (spec: ModelSpec) => ChatModel;
  prices: PriceTable;
  costCapUsd?: number;
  /** max_tokens of every request that sets none (default DEFAULT_MAX_TOKENS); `params.maxTokens` wins. */
  maxTokens?: number;
  useCache?: boolean;
  retryErrors?: boolean;
  /** Continue this stored run (its stored config and items; flags that change the plan are ignored). */
  resumeRunId?: string;
  /**
   * A model whose endpoint differs from where the run calls it now is moved there for the
   * remaining trials (the endpoint was given on the command line); otherwise such a resume is refused.
   */
  moveEndpoints?: boolean;
  /** Judge tutor_accuracy explanations with these two judges (stored with the run; a resume reuses them). */
  judging?: JudgingConfig;
  concurrency: (provider: string) => number;
  /** Plan and store the run, then stop: workers (`paideia worker`) run its trials. */
  planOnly?: boolean;
  signal?: AbortSignal;
  /** Start no new call; calls in flight finish and are stored. */
  stopSignal?: AbortSignal;
  onEvent?: (e: RunEvent) => void;
}

export interface SuiteRunResult {
  run: RunRecord;
  summary: RunSummary;
  judging?: JudgingSummary & { config: JudgingConfig };
}

/** Trials stored per transaction: one transaction of 200,000 held the event loop for 1.6 s. */
const TRIAL_SLICE = 20_000;

/**
 * Store a plan's trials a slice at a time, letting the event loop turn between slices (Ctrl-C, a
 * web server in the same process). Trials are stored once (a trial already stored is kept), so a
 * plan cut short by a kill is completed by the resume that stores it again.
 */
async function saveTrialSlices(store: Store, trials: TrialSource): Promise<void> {
  const turns = loopTurns();
  for (let i = 0; i < trials.size; i += TRIAL_SLICE) {
    const turn = turns.due();
    if (turn) await turn;
    await store.saveTrials(Array.from({ length: Math.min(TRIAL_SLICE, trials.size - i) }, (_, j) => trials.at(i + j)));
  }
}

/**
 * Plan a run from item files (or reopen a stored one), then execute it: item trials, and the
 * judge trials of tutor explanations when the run has judges. The run id is the hash of what the
 * run is asked to do, so running the same command again resumes the same run.
 */
export async function runSuite(o: RunSuiteOptions): Promise<SuiteRunResult> {
  const { run, trials, used, specs, models, judging, ends } = await planRun(o);
  const steps = suiteSteps({ store: o.store, run, used, tests: o.testDefinitions, scorers: o.scorers, judging });
  await saveTrialSlices(o.store, trials);
  await o.store.setRunStatus(run.id, 'running');
  o.onEvent?.({ type: 'planned', runId: run.id, kind: SUITE_RUN, trials: trials.size });
  if (o.planOnly) return planned(o.store, run, trials.size);
  const endpoints = ends.current;
  const summary = await executeTrials({
    store: o.store, runId: run.id, trials, ...steps, models,
    identityOf: alias => ({ spec: specs.find(s => s.alias === alias)!.spec, endpoint: endpoints[alias] ?? models.get(alias)?.endpoint, formerEndpoints: ends.former[alias] }),
    cost: pricedCosts(run.prices, specs, alias => endpoints[alias] ?? models.get(alias)?.endpoint),
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}), ...(o.costCapUsd !== undefined ? { costCapUsd: o.costCapUsd } : {}),
    poolOf: t => { const provider = parseModelSpec(t.modelSpec).provider; return { name: provider, size: o.concurrency(provider) }; },
    useCache: o.useCache ?? true, retryErrors: o.retryErrors ?? false,
    ...(o.signal ? { signal: o.signal } : {}), ...(o.stopSignal ? { stopSignal: o.stopSignal } : {}), ...(o.onEvent ? { onEvent: o.onEvent } : {}),
  });
  const explained = judging ? { ...(await scoreExplanations(o.store, run.id, judging)), config: judging } : undefined;
  const status = summary.stoppedBy || summary.pending > 0 ? 'stopped' : summary.done === 0 && summary.failed > 0 ? 'failed' : 'completed';
  const note = summary.stoppedBy ? stopNote(summary, o.costCapUsd) : summary.failed ? `${summary.failed} trial(s) failed` : undefined;
  await o.store.setRunStatus(run.id, status, note);
  return { run: (await o.store.getRun(run.id)) ?? { ...run, status }, summary, ...(explained ? { judging: explained } : {}) };
}

/**
 * The run's record as a run holds it once planned: without the version hash of every item it
 * plans (config.itemHashes, a million strings in a run of a million items), which the plan has in
 * its own columns. The whole record is read again from the store when the run ends; a run
 * deleted meanwhile is returned as this.
 */
function withoutItemList(run: RunRecord): RunRecord {
  return { ...run, config: { ...run.config, itemHashes: [] } };
}

/**
 * The run's record, trials, models and endpoints. Its items are read, checked and planned here
 * and let go when this returns: the steps read them back from the store a chunk at a time.
 */
async function planRun(o: RunSuiteOptions) {
  const stored = o.resumeRunId ? await storedRun(o, o.resumeRunId) : undefined;
  const own = new Map((stored?.config.models ?? o.models).map(m => [m.alias, o.createModel(m)]));
  const cannot = unanswerableBy(own, o.testDefinitions);
  const { run, items } = stored ? await reopen(o, stored, cannot) : await plan(o, own, cannot);
  let judging = o.judging ?? (await loadJudgingConfig(o.store, run.id));
  if (o.judging) {
    const endpoints = Object.fromEntries(judgeSpecs(o.judging).flatMap(s => { const e = o.createModel(s).endpoint; return e ? [[s.alias, e]] : []; }));
    // The judges' endpoints as stored are where the run calls them: without them a new run would
    // find its judges "moved" from nowhere and store a move for each.
    judging = { ...o.judging, ...(Object.keys(endpoints).length ? { endpoints } : {}) };
    await saveJudgingConfig(o.store, run.id, judging);
  }
  const judges = judging ? judgeSpecs(judging) : [];
  const specs = [...run.config.models, ...judges];
  const clash = judges.find(j => run.config.models.some(m => m.alias === j.alias));
  if (clash) throw new ConfigError([{ field: '--judge', message: `judge alias "${clash.alias}" is also a model's alias; name the judge otherwise` }]);
  const models = new Map([...own, ...judges.map(j => [j.alias, o.createModel(j)] as const)]);
  const ends = await settleEndpoints(o, run, specs, models, judging);
  const trials = planSuiteTrials({ run, items, tests: o.testDefinitions, judging });
  // The tests the trials ask (judges ask their targets'): their scorers are the run's.
  const used = new Set<string>();
  for (let i = 0; i < items.length; i++) if (run.config.models.some(m => !items.cannot(i)?.includes(m.alias))) used.add(items.test(i));
  return { run, trials, used, specs, models, judging, ends };
}

/**
 * Where the run's models are called from now on: where it called them last, or, for a model
 * given another endpoint on the command line, that one (the move is stored with the run; calls
 * made before stay stored under the endpoint they used).
 */
async function settleEndpoints(
  o: RunSuiteOptions, run: RunRecord, specs: ModelSpec[], models: ReadonlyMap<string, ChatModel>, judging: JudgingConfig | undefined,
): Promise<RunEndpoints> {
  const ends = await runEndpoints(o.store, run.id, { ...run.config.endpoints, ...judging?.endpoints });
  const drift = specs.filter(m => models.get(m.alias)?.endpoint !== ends.current[m.alias]);
  if (drift.length === 0) return ends;
  const moved = (m: ModelSpec) => models.get(m.alias)?.endpoint;
  if (!o.moveEndpoints || drift.some(m => moved(m) === undefined)) {
    throw new ConfigError(drift.map(m => ({
      field: '--base-url',
      message: `run ${run.id} calls ${m.alias} at ${ends.current[m.alias] ?? '(no endpoint)'}, but this resume would call ${moved(m) ?? '(no endpoint)'}; pass --base-url to move its remaining trials there, or start a new run`,
    })));
  }
  for (const m of drift) {
    const from = ends.current[m.alias];
    await moveEndpoint(o.store, run.id, m.alias, from, moved(m)!);
    o.onEvent?.({ type: 'warning', message: `${m.alias} moves from ${from ?? '(no endpoint)'} to ${moved(m)} for the remaining trials of run ${run.id}; the calls made before stay stored` });
  }
  return runEndpoints(o.store, run.id, { ...run.config.endpoints, ...judging?.endpoints });
}

/** A planned run left for workers: stopped (resumable), nothing called. */
async function planned(store: Store, run: RunRecord, total: number): Promise<SuiteRunResult> {
  const statuses = [...(await store.listTrialStatuses(run.id)).values()];
  const done = statuses.filter(s => s === 'done').length;
  const failed = statuses.length - done;
  await store.setRunStatus(run.id, 'stopped', 'planned; waiting for workers');
  return {
    run: (await store.getRun(run.id)) ?? { ...run, status: 'stopped' },
    summary: { total, done, failed, pending: total - done - failed, needsCall: 0, blocked: 0, spentUsd: await store.spentUsd(run.id), overshootUsd: 0 },
  };
}

/**
 * The trials of a suite run: items x models x repeats (less the pairs a model cannot answer), and
 * the judges of explanations when it has them. The item trials are a table (planTrialTable), made
 * one at a time as they run; the judges, fewer, a list.
 */
export function planSuiteTrials(a: {
  run: RunRecord; items: PlanItems; tests: ReadonlyMap<string, TestDefinition>; judging?: JudgingConfig | undefined;
}): TrialSource {
  const { run, items } = a;
  const itemTrials = planTrialTable({
    runId: run.id, items, models: run.config.models, tests: a.tests, repeats: run.config.repeats,
    seed: run.config.seed, params: run.config.params, applicable: (model, i) => !items.cannot(i)?.includes(model.alias),
  });
  return a.judging ? concatSources(itemTrials, trialList(planJudgeTrials(itemTrials, a.judging))) : itemTrials;
}

/**
 * The step kinds of a suite run and the items they read, from its stored record alone (run,
 * resume and rescore share them): items come from the store a chunk of trials at a time. `used`:
 * the tests its trials ask, whose scorers it scores with.
 */
export function suiteSteps(a: {
  store: Store; run: RunRecord; used: ReadonlySet<string>; tests: ReadonlyMap<string, TestDefinition>; scorers: ScorerRegistry; judging?: JudgingConfig | undefined;
}): { stepOf: (t: Trial) => StepKind; inputs: ItemShelf } {
  const { run, used } = a;
  const items = itemShelf(a.store, run.id);
  const steps = new Map<string, StepKind>([[ITEM_STEP, itemStep({
    items, tests: a.tests, params: run.config.params,
    scorers: a.scorers.forTests([...a.tests.values()].filter(t => used.has(t.name))),
  })]]);
  if (a.judging) steps.set(EXPLANATION_JUDGE_STEP, explanationJudgeStep({ items, config: a.judging }));
  return { stepOf: t => steps.get(t.kind ?? ITEM_STEP)!, inputs: items };
}

async function storedRun(o: RunSuiteOptions, id: string): Promise<RunRecord> {
  const run = await o.store.getRun(id);
  if (!run) throw new ConfigError([{ field: '--resume', message: `no run "${id}" in ${o.store.url}` }]);
  // The CLI's `run --resume` sends other kinds to their own; a library caller asked for the wrong kind.
  if (run.kind !== SUITE_RUN) throw new ConfigError([{ field: '--resume', message: `run ${id} is a ${run.kind} run, not a suite run; resume it with: ${commandHint(['run', '--resume', id], o.store.url)}` }]);
  return run;
}

type Unanswerable = (v: VersionedItem) => string[];

async function reopen(o: RunSuiteOptions, run: RunRecord, cannot: Unanswerable): Promise<{ run: RunRecord; items: PlanItems }> {
  const items = await storedPlanItems(o.store, run.id, cannot);
  return { run: withoutItemList(run), items: items.length < run.config.itemHashes.length ? await replan(o, run, cannot) : items };
}

/**
 * The items of a run whose plan was never fully stored (the disk filled while planning), read
 * again from the run's item files: the resume hint printed at that failure must work.
 */
async function replan(o: RunSuiteOptions, run: RunRecord, cannot: Unanswerable): Promise<PlanItems> {
  const wanted = new Set(run.config.itemHashes);
  const { items } = await planItemFiles({ store: o.store, paths: run.config.suites, keep: v => wanted.delete(v.hash), tests: o.testDefinitions, cannot });
  if (wanted.size > 0) {
    throw new ConfigError([{
      field: '--resume',
      message: `the plan of run ${run.id} was not fully stored, and its item files (${run.config.suites.join(', ')}) no longer hold ${wanted.size} of its ${run.config.itemHashes.length} items; start it again with the command that made it`,
    }]);
  }
  return items;
}

async function plan(o: RunSuiteOptions, models: ReadonlyMap<string, ChatModel>, cannot: Unanswerable): Promise<{ run: RunRecord; items: PlanItems }> {
  const { items, present } = await planItemFiles({
    store: o.store, paths: o.suites, keep: v => !o.tests || o.tests.includes(v.item.test), tests: o.testDefinitions, cannot,
  });
  if (items.length === 0) {
    throw new ConfigError([{ field: '--tests', message: `no items of test(s) ${o.tests?.join(', ')} in ${o.suites.join(', ')} (it holds: ${[...present].sort().join(', ')})` }]);
  }
  // Every model a baseline that gets no hint it needs from any of these items: a run of nothing.
  if (Array.from({ length: items.length }, (_, i) => i).every(i => o.models.every(m => items.cannot(i)?.includes(m.alias)))) {
    const tests = [...new Set(Array.from({ length: items.length }, (_, i) => items.test(i)))].sort();
    const needs = o.models.map(m => `${m.spec} needs the "${models.get(m.alias)?.needsHints?.join('", "')}" of an item`).join('; ');
    throw new ConfigError([{
      field: '--model',
      message: `nothing to run: no model can answer any item of ${tests.join(', ')} (${needs}, which these tests do not give); add a model that can, or choose other tests with --tests`,
    }]);
  }
  const endpoints: Record<string, string> = {};
  const baselines: string[] = [];
  for (const [alias, model] of models) {
    if (model.endpoint) endpoints[alias] = model.endpoint;
    if (model.isBaseline) baselines.push(alias);
  }
  // Models a baseline cannot answer (no hints for it) are not planned: "not applicable", not failed.
  const config = {
    suites: o.suites, itemHashes: items.sortedHashes(), models: o.models,
    ...(Object.keys(endpoints).length ? { endpoints } : {}),
    repeats: o.repeats, seed: o.seed, params: o.params, ...(o.tests ? { tests: o.tests } : {}),
    // Every request carries a max_tokens, so the cost cap reserves each call's worst case.
    ...(o.params.maxTokens === undefined ? { maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS } : {}),
  };
  const now = new Date().toISOString();
  const run = await o.store.openRun({
    id: `run-${contentHash({ ...config, suites: undefined })}`, kind: SUITE_RUN, createdAt: now, updatedAt: now, status: 'running',
    config: { ...config, ...(baselines.length ? { baselines } : {}) }, prices: o.prices, paideiaVersion: PAIDEIA_VERSION,
  });
  return { run: withoutItemList(run), items };
}
