import type { Env } from '../core/env.js';
import { PAIDEIA_VERSION } from '../core/version.js';
import {
  ProviderCallError, contentHash, type CallRecord, type ChatModel, type ChatRequest, type ChatResult,
  type PriceTable, type RunRecord, type Store, type Trial,
} from '../core/index.js';
import { createBudget, type Budget } from '../engine/budget.js';
import { acquireRunLease } from '../engine/lease.js';
import { createLimiter } from '../engine/limiter.js';
import { costOf, estimateCost, loadPriceTable, priceFor } from '../providers/pricing.js';
import type { FetchFunction } from '../providers/shared/post-json.js';
import { DIALOGUE_KIND, SCENARIO_KIND, latestCalls, metaToJson, type DialogueMeta } from './dialogue.js';
import { END } from './graph.js';
import { judgeRun, type JudgeSummary } from './judge/index.js';
import { memoryWindow, type DialogueMessage } from './memory.js';
import { buildChatModel, modelIdentity } from './models.js';
import { renderTemplate, taskLookup } from './template.js';
import type { Scenario, ScenarioModel, ScenarioTask, ScenarioVariant } from './types.js';


export type ScenarioEvent =
  | { type: 'start'; runId: string; dialogues: number; judgments: number }
  | { type: 'turn'; trial: Trial; step: number; agent: string; replayed: boolean }
  | { type: 'dialogue'; trial: Trial; status: DialogueMeta['status'] }
  | { type: 'judgment'; trialId: string; judge: string; repeat: number; value: number | null }
  | { type: 'stop'; reason: 'interrupt' | 'cost-cap' };

export interface RunScenarioOptions {
  scenario: Scenario;
  store: Store;
  /** Dialogues per task; default globals.repeats. */
  repeats?: number;
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
}

export interface ScenarioRunSummary {
  runId: string;
  dialogues: number;
  ended: number;
  capped: number;
  failed: number;
  /** Not finished (interrupted); `--resume` continues them. */
  pending: number;
  judging?: JudgeSummary;
  stoppedBy?: 'interrupt' | 'cost-cap';
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
        });
      }
    }
  }
  return trials;
}

/**
 * Run every dialogue of a scenario as a walk of its graph from START to END, `concurrency` at a
 * time, storing each turn the moment it returns; then judge the finished dialogues from the store.
 * Stored turns are replayed, never asked again, so a killed run resumes where it stopped.
 */
export async function runScenario(o: RunScenarioOptions): Promise<{ run: RunRecord; summary: ScenarioRunSummary }> {
  const { scenario, store } = o;
  const repeats = o.repeats ?? scenario.globals.repeats;
  const runId = scenarioRunId(scenario, repeats);
  const prices = o.prices ?? safePrices();
  const now = new Date().toISOString();
  const specs = scenario.variants.flatMap(v => [...v.models.values()].map(m => ({ ...m.spec, alias: scenario.variants.length > 1 ? `${v.label}/${m.alias}` : m.alias })));
  const run = await store.openRun({
    id: runId, createdAt: now, updatedAt: now, status: 'running', prices, paideiaVersion: PAIDEIA_VERSION,
    config: {
      suites: [scenario.file], itemHashes: scenario.tasks.map(t => t.hash).sort(), models: specs,
      repeats, seed: scenario.globals.seed, params: {}, tests: [scenarioTest(scenario)],
    },
  });
  // One process at a time per run: a second one would call the same turns again.
  const lease = await acquireRunLease(store, runId);
  try {
    const trials = planScenarioTrials(scenario, runId, repeats);
    await store.saveTrials(trials);
    await store.putArtifact(runId, SCENARIO_KIND, 'config', JSON.parse(JSON.stringify({
      name: scenario.name, file: scenario.file, hash: scenario.hash, target: scenario.target,
      evaluationVersion: scenario.evaluation?.version ?? null, config: scenario.redacted,
      variants: scenario.variants.map(v => ({ label: v.label, models: modelIdentity(v.models), families: familiesOf(v.models) })),
      tasks: scenario.tasks, warnings: scenario.warnings,
    })));
    await store.setRunStatus(runId, 'running');

    const build = o.createModel ?? ((m: ScenarioModel) => buildChatModel(m, { retry: scenario.globals.retry, ...(o.fetch ? { fetch: o.fetch } : {}), ...(o.env ? { env: o.env } : {}) }));
    const modelCache = new Map<string, ChatModel>();
    const modelFor = (variant: ScenarioVariant, alias: string): ChatModel => {
      const key = `${variant.label}\u0000${alias}`;
      let m = modelCache.get(key);
      if (!m) modelCache.set(key, (m = build(variant.models.get(alias)!, variant)));
      return m;
    };
    const allCalls = await store.listCalls(runId);
    const stored = latestCalls(allCalls);
    // Spent so far: stored turns, and judge calls as their scores recorded them.
    const judgeSpent = (await store.listScores(runId)).reduce((a, sc) => a + (typeof sc.details?.costUsd === 'number' ? sc.details.costUsd : 0), 0);
    const budget = createBudget(o.costCapUsd, allCalls.reduce((a, call) => a + call.costUsd, 0) + judgeSpent);
    let stoppedByCap = false;
    const priorMeta = new Map((await store.listArtifacts(runId, DIALOGUE_KIND)).map(a => [a.key, a.value as unknown as DialogueMeta]));
    const variants = new Map(scenario.variants.map(v => [v.label, v]));
    const tasks = new Map(scenario.tasks.map(t => [t.hash, t]));

    let stopped = false;
    const onAbort = () => {
      if (stopped) return;
      stopped = true;
      o.onEvent?.({ type: 'stop', reason: 'interrupt' });
    };
    const onCostCap = () => {
      if (stopped) return;
      stopped = true;
      stoppedByCap = true;
      budget.cancel();
      o.onEvent?.({ type: 'stop', reason: 'cost-cap' });
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted) onAbort();
    o.onEvent?.({ type: 'start', runId, dialogues: trials.length, judgments: trials.length * (scenario.evaluation ? scenario.evaluation.judges.length * scenario.evaluation.repeats : 0) });

    const limit = createLimiter(scenario.globals.concurrency);
    const counts = { ended: 0, capped: 0, failed: 0, pending: 0 };
    await Promise.all(trials.map(trial => limit(async () => {
      const status = await runDialogue({
        trial, scenario, store, task: tasks.get(trial.itemHash)!, variant: variants.get(trial.modelAlias)!, modelFor,
        stored: stored.get(trial.id) ?? [], prior: priorMeta.get(trial.id), retryErrors: o.retryErrors ?? false,
        prices, budget, onCostCap, isStopped: () => stopped, ...(o.signal ? { signal: o.signal } : {}), ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      });
      if (status === 'running') counts.pending++;
      else counts[status]++;
      if (status !== 'running') o.onEvent?.({ type: 'dialogue', trial, status });
    })));

    const summary: ScenarioRunSummary = { runId, dialogues: trials.length, ...counts };
    if (!stopped && scenario.evaluation && o.judge !== false) {
      summary.judging = await judgeRun({
        store, runId, scenario,
        judgeModel: (trial, alias) => {
          const variant = variants.get(trial.modelAlias) ?? scenario.variants[0]!;
          return { model: modelFor(variant, alias), params: variant.models.get(alias)!.params };
        },
        concurrency: scenario.globals.concurrency, ...(o.signal ? { signal: o.signal } : {}),
        budget, priceOf: alias => {
          const entry = scenario.variants[0]!.models.get(alias);
          return entry ? priceFor(prices, entry.spec) : undefined;
        },
        ...(o.onEvent ? { onJudgment: e => o.onEvent!({ type: 'judgment', ...e }) } : {}),
      });
      if (summary.judging.stoppedByCostCap) stoppedByCap = true;
    }
    o.signal?.removeEventListener('abort', onAbort);
    if (stoppedByCap) summary.stoppedBy = 'cost-cap';
    else if (stopped) summary.stoppedBy = 'interrupt';
    const unfinished = stopped || stoppedByCap || summary.pending > 0 || (summary.judging?.pending ?? 0) > 0;
    const status = unfinished ? 'stopped' : 'completed';
    const failures = summary.failed + (summary.judging?.errors ?? 0);
    await store.setRunStatus(runId, status, stoppedByCap ? `cost cap $${o.costCapUsd} reached` : stopped ? 'interrupted' : failures > 0 ? `${summary.failed} dialogue(s) failed, ${summary.judging?.errors ?? 0} judge call(s) failed` : undefined);
    return { run: { ...run, status }, summary };
  } finally {
    await lease.release();
  }
}

function safePrices(): PriceTable {
  try {
    return loadPriceTable();
  } catch {
    return { source: 'none', date: '', models: {} };
  }
}

interface DialogueContext {
  trial: Trial;
  scenario: Scenario;
  store: Store;
  task: ScenarioTask;
  variant: ScenarioVariant;
  modelFor(variant: ScenarioVariant, alias: string): ChatModel;
  /** Newest stored record per step of this trial. */
  stored: CallRecord[];
  prior: DialogueMeta | undefined;
  retryErrors: boolean;
  prices: PriceTable;
  budget: Budget;
  /** The next call could pass the cost cap: stop every dialogue (they stay open for --resume). */
  onCostCap(): void;
  isStopped(): boolean;
  signal?: AbortSignal;
  onEvent?: (event: ScenarioEvent) => void;
}

/** One dialogue: walk the graph, replaying stored turns and calling models only for new ones. */
async function runDialogue(c: DialogueContext): Promise<DialogueMeta['status']> {
  const { scenario, trial, task } = c;
  if (c.prior?.status === 'failed' && !c.retryErrors) return 'failed';
  const lookup = taskLookup(task.vars);
  const start = scenario.startPrompt
    ? { role: scenario.startPrompt.role, content: renderTemplate(scenario.startPrompt.content, lookup, 'tasks.start_prompt') }
    : undefined;
  const meta: DialogueMeta = { trialId: trial.id, taskId: task.id, variant: c.variant.label, repeat: trial.repeat, status: 'running', ...(start ? { start } : {}), turns: [] };
  const transcript: DialogueMessage[] = start ? [{ speaker: 'START', role: start.role, content: start.content }] : [];
  const turnsOf = new Map<string, number>();
  const save = () => c.store.putArtifact(trial.runId, DIALOGUE_KIND, trial.id, metaToJson(meta));
  let node = scenario.graph.first;
  let endedBy: DialogueMeta['endedBy'] = 'end';

  for (let step = 0; ; step++) {
    if (node === END) {
      meta.status = 'ended';
      meta.endedBy = endedBy;
      break;
    }
    if (step >= scenario.globals.recursionLimit) {
      meta.status = 'capped';
      meta.endedBy = 'recursion_limit';
      break;
    }
    const agent = scenario.agents.get(node)!;
    const modelEntry = c.variant.models.get(agent.model)!;
    const prompt = agent.prompt.map((p, i) => ({ role: p.role, content: renderTemplate(p.content, lookup, `prompt ${i} of agent "${agent.name}"`) }));
    const request: ChatRequest = {
      messages: [...prompt, ...memoryWindow(agent.name, transcript, agent.memory)],
      params: modelEntry.params,
      context: { trialId: trial.id, itemId: task.id, repeat: trial.repeat, turn: turnsOf.get(agent.name) ?? 0, role: agent.name },
    };
    const requestHash = contentHash({ model: modelEntry.spec.spec, messages: request.messages, params: request.params });
    const previous = c.stored[step];
    let result: ChatResult;
    if (previous?.status === 'ok' && previous.result && previous.requestHash === requestHash) {
      result = previous.result;
      c.onEvent?.({ type: 'turn', trial, step, agent: agent.name, replayed: true });
    } else {
      if (c.isStopped()) return 'running';
      const price = priceFor(c.prices, modelEntry.spec);
      const estimate = price ? estimateCost(price, request) : 0;
      if (!(await c.budget.reserve(estimate))) {
        c.onCostCap();
        return 'running';
      }
      const started = performance.now();
      let attempts = 1;
      try {
        result = await c.modelFor(c.variant, agent.model).generate(request, {
          ...(c.signal ? { signal: c.signal } : {}),
          onRetry: ({ attempt }) => { attempts = attempt + 1; },
        });
      } catch (error) {
        c.budget.settle(estimate, 0);
        // An interrupted call is not a failure: the dialogue stays open for --resume.
        if (c.signal?.aborted) return 'running';
        const e = error instanceof ProviderCallError ? error : undefined;
        await c.store.saveCall(callRecord(trial, step, requestHash, request, {
          status: 'error', attempts, latencyMs: performance.now() - started, costUsd: 0, cached: false,
          error: {
            name: (error as Error).name ?? 'Error', message: (error as Error).message ?? String(error),
            ...(e ? { kind: e.kind } : {}), ...(e?.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
          },
        }));
        meta.status = 'failed';
        meta.endedBy = 'error';
        meta.error = `turn ${step} (${agent.name}): ${(error as Error).message}`;
        meta.turns.push({ step, agent: agent.name, model: agent.model });
        await save();
        return 'failed';
      }
      // Without reported usage a turn is charged its pre-call estimate, never $0.
      const costUsd = price ? (result.usage ? costOf(price, result.usage) : estimate) : 0;
      c.budget.settle(estimate, costUsd);
      await c.store.saveCall(callRecord(trial, step, requestHash, request, {
        status: 'ok', result, attempts, latencyMs: performance.now() - started, costUsd, cached: false,
      }));
      c.onEvent?.({ type: 'turn', trial, step, agent: agent.name, replayed: false });
    }
    transcript.push({ speaker: agent.name, content: result.text });
    turnsOf.set(agent.name, (turnsOf.get(agent.name) ?? 0) + 1);
    meta.turns.push({ step, agent: agent.name, model: agent.model });
    await save();
    const edge = scenario.graph.edges.get(node)!;
    if (edge.kind === 'node') {
      node = edge.to;
      endedBy = 'end';
    } else {
      const decision = edge.router.route({ source: agent.name, message: result.text, turnsOf: a => turnsOf.get(a) ?? 0 });
      node = decision.to;
      endedBy = decision.by === 'max_turns' ? 'max_turns' : 'end';
    }
  }
  await save();
  return meta.status;
}

function callRecord(
  trial: Trial, step: number, requestHash: string, request: ChatRequest,
  rest: Pick<CallRecord, 'status' | 'attempts' | 'latencyMs' | 'costUsd' | 'cached'> & Partial<Pick<CallRecord, 'result' | 'error'>>,
): CallRecord {
  return { runId: trial.runId, trialId: trial.id, step, requestHash, request, createdAt: new Date().toISOString(), ...rest };
}
