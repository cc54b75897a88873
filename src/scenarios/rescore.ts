import { existsSync } from 'node:fs';
import { ConfigError, parseModelSpec, type Store } from '../core/index.js';
import { executeTrials } from '../engine/execute.js';
import { pricedCosts } from '../engine/pricing.js';
import { aggregatePanels, planJudgeTrials, type JudgeSummary } from './judge/index.js';
import { loadScenario } from './load.js';
import { SCENARIO_RUN, scenarioSteps } from './run.js';
import { variantAlias } from './dialogue-step.js';
import type { StoredScenarioConfig } from './analysis/stored.js';
import { SCENARIO_KIND } from './dialogue.js';

export interface ScenarioRescore {
  /** Judgments derived again from their stored judge calls. */
  judgments: number;
  /** Judgments the current evaluation asks that no stored call answers (its prompt changed). */
  needsCall: number;
  panel: JudgeSummary;
  file: string;
}

/**
 * Re-derive every judgment of a scenario run from its stored judge calls with the scenario file
 * as it is now (its rubric, weights and format), calling nothing. Judgments whose judge prompt
 * changed are counted, not made: `paideia scenario run FILE` makes them.
 */
export async function rescoreScenario(store: Store, runId: string, o: { file?: string } = {}): Promise<ScenarioRescore> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}` }]);
  if (run.kind !== SCENARIO_RUN) throw new ConfigError([{ field: 'run-id', message: `run ${runId} is a ${run.kind} run, not a scenario run` }]);
  const stored = (await store.listArtifacts(runId, SCENARIO_KIND)).find(a => a.key === 'config')?.value as StoredScenarioConfig | undefined;
  const file = o.file ?? stored?.file;
  if (!file || !existsSync(file)) {
    throw new ConfigError([{ field: '--scenario', message: `the scenario file of run ${runId} (${file ?? 'unknown'}) is not there; name it with --scenario FILE` }]);
  }
  // The run's own model bindings (the `--model` overrides it was made with, every swept variant):
  // judge trials are identified by the judge's spec, so the file alone would name other judges.
  const bindings = new Map<string, Set<string>>();
  for (const v of stored?.variants ?? []) {
    for (const [alias, m] of Object.entries(v.models)) (bindings.get(alias) ?? bindings.set(alias, new Set()).get(alias)!).add(m.spec);
  }
  const models = [...bindings].flatMap(([alias, specs]) => [...specs].map(spec => ({ ...parseModelSpec(spec), alias })));
  const scenario = loadScenario(file, { models });
  const dialogues = (await store.listTrials(runId)).filter(t => t.target === undefined);
  const judges = planJudgeTrials(scenario, dialogues);
  await store.saveTrials(judges);
  const specs = scenario.variants.flatMap(v => [...v.models.values()].map(m => ({ ...m.spec, alias: variantAlias(scenario, v, m.alias) })));
  const endpoints = new Map(run.config.models.map(m => [m.alias, run.config.endpoints?.[m.alias]]));
  const summary = await executeTrials({
    store, runId, trials: [...dialogues, ...judges], offline: true, models: new Map(),
    stepOf: scenarioSteps(scenario),
    identityOf: alias => ({ spec: specs.find(s => s.alias === alias)?.spec ?? alias, endpoint: endpoints.get(alias) }),
    cost: pricedCosts(run.prices, specs, alias => endpoints.get(alias)),
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}),
    poolOf: () => ({ name: 'scenario', size: 64 }),
  });
  const panel = await aggregatePanels(store, runId, scenario);
  return { judgments: panel.judgments, needsCall: summary.needsCall, panel, file };
}
