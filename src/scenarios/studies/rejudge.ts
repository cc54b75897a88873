import { commandHint } from '../../core/command-hint.js';
import type { Env } from '../../core/env.js';
import { ConfigError, contentHash, type ChatModel, type Judgment, type ModelSpec, type RunEvent, type Store } from '../../core/index.js';
import { executeTrials } from '../../engine/execute.js';
import { pricedCosts } from '../../engine/pricing.js';
import type { FetchFunction } from '../../providers/shared/post-json.js';
import { variantAlias } from '../dialogue-step.js';
import { SCENARIO_JUDGE_STEP, planJudgeTrials } from '../judge/index.js';
import { buildChatModel } from '../models.js';
import { SCENARIO_RUN, scenarioRunId, scenarioSteps } from '../run.js';
import type { Evaluation, Scenario, ScenarioModel } from '../types.js';

/** One way of judging again: the scenario with its evaluation (and judge models) changed. */
export interface JudgeVariant {
  /** Short name in tables (`baseline`, `anchors-off`, `stability`, ...). */
  name: string;
  scenario: Scenario;
}

/**
 * A variant of a scenario's evaluation. Its version is the file's when nothing the judge sees
 * changes (so stored judgments are reused), else a hash of the file's version and the variant,
 * so its judgments never mix with the file's in `scenario report`.
 */
export function variantScenario(scenario: Scenario, name: string, change: { evaluation?: Partial<Evaluation>; judgeModel?: (m: ScenarioModel) => ScenarioModel }): JudgeVariant {
  const ev = scenario.evaluation!;
  const same = change.evaluation === undefined && change.judgeModel === undefined;
  const evaluation: Evaluation = { ...ev, ...change.evaluation, version: same ? ev.version : contentHash({ of: ev.version, variant: name }, 12) };
  const judges = new Set(ev.judges);
  const variants = scenario.variants.map(v => ({
    ...v, models: new Map([...v.models].map(([alias, m]) => [alias, judges.has(alias) && change.judgeModel ? change.judgeModel(m) : m])),
  }));
  return { name, scenario: { ...scenario, evaluation, variants, models: variants[0]!.models } };
}

export interface RejudgeOptions {
  store: Store;
  scenario: Scenario;
  variants: JudgeVariant[];
  /** Dialogues per task of the stored run (the run id hashes it). */
  repeats?: number;
  env?: Env;
  fetch?: FetchFunction;
  costCapUsd?: number;
  signal?: AbortSignal;
  onEvent?: (e: RunEvent) => void;
  /** The command that makes the stored run's dialogues, with the caller's bindings (for the hint when there is none). */
  runHint?: string;
}

/**
 * Judge the stored dialogues of a scenario run again under each variant: judge trials only, added
 * to the same run and run by the engine (stored calls replayed, new ones stored, resumable, one
 * cost cap). No dialogue turn is asked again: dialogues are done, and only judges are planned.
 */
export async function rejudge(o: RejudgeOptions): Promise<{ runId: string; judgments: Map<string, Judgment[]>; failed: number; pending: number }> {
  const { store, scenario } = o;
  if (!scenario.evaluation) throw new ConfigError([{ file: scenario.file, field: 'evaluation', message: 'the scenario has no evaluation: there is nothing to judge again' }]);
  const runId = scenarioRunId(scenario, o.repeats ?? scenario.globals.repeats);
  const run = await store.getRun(runId);
  if (!run || run.kind !== SCENARIO_RUN) {
    throw new ConfigError([{ field: 'run', message: `no stored run ${runId} of this scenario with these models in ${store.url}; make its dialogues first with: ${o.runHint ?? commandHint(['scenario', 'run', scenario.file], store.url)}` }]);
  }
  const stored = await store.listTrials(runId);
  const dialogues = stored.filter(t => t.target === undefined);
  // Trials already stored keep their place; new ones go after every stored trial, in plan order.
  const known = new Map(stored.map(t => [t.id, t.index]));
  let next = Math.max(-1, ...stored.map(t => t.index)) + 1;
  const planned = o.variants.map(v => planJudgeTrials(v.scenario, dialogues));
  const unique = new Map(planned.flat().map(t => [t.id, t]));
  const judges = [...unique.values()].map(t => ({ ...t, index: known.get(t.id) ?? next++ }));
  await store.saveTrials(judges);
  const models = new Map<string, ChatModel>();
  const specs: Array<Pick<ModelSpec, 'alias' | 'spec'>> = [];
  const stepOf = new Map(o.variants.map(v => [v.scenario.evaluation!.version, scenarioSteps(v.scenario)]));
  for (const v of o.variants) {
    for (const variant of v.scenario.variants) {
      for (const alias of v.scenario.evaluation!.judges) {
        const engineAlias = variantAlias(v.scenario, variant, alias);
        const m = variant.models.get(alias)!;
        specs.push({ alias: engineAlias, spec: m.spec.spec });
        if (!models.has(engineAlias)) models.set(engineAlias, buildChatModel(m, { retry: scenario.globals.retry, ...(o.fetch ? { fetch: o.fetch } : {}), ...(o.env ? { env: o.env } : {}) }));
      }
    }
  }
  const endpointOf = (alias: string) => run.config.endpoints?.[alias] ?? models.get(alias)?.endpoint;
  const summary = await executeTrials({
    store, runId, trials: [...dialogues, ...judges], models,
    // A judge trial's variant is its evaluation's version: each runs with its own variant's step.
    stepOf: t => (t.kind === SCENARIO_JUDGE_STEP ? stepOf.get(t.variant!)! : [...stepOf.values()][0]!)(t),
    identityOf: alias => ({ spec: specs.find(s => s.alias === alias)?.spec ?? alias, endpoint: endpointOf(alias) }),
    cost: pricedCosts(run.prices, specs, endpointOf),
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}),
    ...(o.costCapUsd !== undefined ? { costCapUsd: o.costCapUsd } : {}),
    poolOf: () => ({ name: 'scenario', size: scenario.globals.concurrency }),
    ...(o.signal ? { signal: o.signal } : {}), ...(o.onEvent ? { onEvent: o.onEvent } : {}),
  });
  const all = (await store.listJudgments(runId)).filter(j => j.producer.name === SCENARIO_JUDGE_STEP);
  // Two variants that change nothing in this file share the file's trials and judgments.
  const byVariant = new Map<string, Judgment[]>(o.variants.map((v, i) => {
    const mine = new Set(planned[i]!.map(t => t.id));
    return [v.name, all.filter(j => mine.has(j.trialId))];
  }));
  return { runId, judgments: byVariant, failed: summary.failed, pending: summary.pending + summary.blocked };
}
