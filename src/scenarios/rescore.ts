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
  /**
   * What `paideia scenario run FILE` needs besides the file and the store to name this run again
   * (its `--model` bindings, the `--base-url` its openai models shared, `--repeats`), for the hint.
   */
  runArgs: string[];
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
  // judge trials are identified by the judge's spec and endpoint, so the file alone would name
  // other judges. An alias the run gave the file's own spec is left to the file, which holds what
  // a spec does not (a script, headers); every model keeps the endpoint the run called it at,
  // wherever that came from (the file, --base-url, the environment).
  const bindings = new Map<string, Set<string>>();
  const endpoints = new Map<string, string | null>();
  for (const v of stored?.variants ?? []) {
    for (const [alias, m] of Object.entries(v.models)) {
      (bindings.get(alias) ?? bindings.set(alias, new Set()).get(alias)!).add(m.spec);
      endpoints.set(`${alias}\u0000${m.spec}`, m.apiBase ?? null);
    }
  }
  const asFiled = (alias: string, specs: Set<string>): boolean => {
    const entry = stored?.config.models?.[alias];
    return specs.size === 1 && !!entry && entry.model !== undefined && specs.has(`${entry.type ?? 'openai'}:${entry.model}`);
  };
  const models = [...bindings].filter(([alias, specs]) => !asFiled(alias, specs))
    .flatMap(([alias, specs]) => [...specs].map(spec => ({ ...parseModelSpec(spec), alias })));
  const scenario = loadScenario(file, { models, endpointOf: (alias, spec) => endpoints.get(`${alias}\u0000${spec}`) });
  const runArgs = models.flatMap(m => ['--model', `${m.alias}=${m.spec}`]);
  // One endpoint for every openai model that the file does not give it itself came from --base-url
  // (or OPENAI_BASE_URL, which the hint then need not repeat).
  const openai = [...endpoints].filter(([key]) => key.split('\u0000')[1]!.startsWith('openai:'));
  const shared = new Set(openai.map(([, e]) => e));
  const [base] = shared;
  const fromFile = (key: string) => {
    const entry = stored?.config.models?.[key.split('\u0000')[0]!];
    return !models.some(m => key === `${m.alias}\u0000${m.spec}`) && !!entry && (entry.api_base ?? entry.base_url) !== undefined;
  };
  if (shared.size === 1 && typeof base === 'string' && openai.some(([key]) => !fromFile(key)) && process.env.OPENAI_BASE_URL !== base) runArgs.push('--base-url', base);
  if (run.config.repeats !== scenario.globals.repeats) runArgs.push('--repeats', String(run.config.repeats));
  const dialogues = (await store.listTrials(runId)).filter(t => t.target === undefined);
  const judges = planJudgeTrials(scenario, dialogues);
  await store.saveTrials(judges);
  const specs = scenario.variants.flatMap(v => [...v.models.values()].map(m => ({ ...m.spec, alias: variantAlias(scenario, v, m.alias) })));
  const called = new Map(run.config.models.map(m => [m.alias, run.config.endpoints?.[m.alias]]));
  const summary = await executeTrials({
    store, runId, trials: [...dialogues, ...judges], offline: true, models: new Map(),
    stepOf: scenarioSteps(scenario),
    identityOf: alias => ({ spec: specs.find(s => s.alias === alias)?.spec ?? alias, endpoint: called.get(alias) }),
    cost: pricedCosts(run.prices, specs, alias => called.get(alias)),
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}),
    poolOf: () => ({ name: 'scenario', size: 64 }),
  });
  const panel = await aggregatePanels(store, runId, scenario);
  return { judgments: panel.judgments, needsCall: summary.needsCall, panel, file, runArgs };
}
