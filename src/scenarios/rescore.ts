import { existsSync } from 'node:fs';
import { ConfigError, parseModelSpec, type Env, type Store } from '../core/index.js';
import { executeTrials } from '../engine/execute.js';
import { pricedCosts } from '../engine/pricing.js';
import { aggregatePanels, planJudgeTrials, type JudgeSummary } from './judge/index.js';
import { loadScenario } from './load.js';
import { SCENARIO_RUN, scenarioRunId, scenarioSteps } from './run.js';
import { variantAlias } from './dialogue-step.js';
import type { StoredScenarioConfig } from './analysis/stored.js';
import type { Scenario } from './types.js';
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
 * changed are counted, not made: `paideia scenario run FILE` makes them. A file that describes
 * another run (its dialogues changed, or another scenario) is refused before anything is written.
 */
export async function rescoreScenario(store: Store, runId: string, o: { file?: string; env?: Env } = {}): Promise<ScenarioRescore> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}` }]);
  if (run.kind !== SCENARIO_RUN) throw new ConfigError([{ field: 'run-id', message: `run ${runId} is a ${run.kind} run, not a scenario run` }]);
  const stored = (await store.listArtifacts(runId, SCENARIO_KIND)).find(a => a.key === 'config')?.value as StoredScenarioConfig | undefined;
  const file = o.file ?? stored?.file;
  if (!file || !existsSync(file)) {
    throw new ConfigError([{ field: '--scenario', message: o.file
      ? `${o.file} is not there; name the scenario file run ${runId} was made with`
      : `the scenario file of run ${runId} (${file ?? 'unknown'}) is not there; name it with --scenario FILE` }]);
  }
  const bound = storedBindings(stored);
  const models = bound.filter(b => !b.asFiled).map(b => ({ ...parseModelSpec(b.spec), alias: b.alias }));
  const scenario = boundScenario(runId, file, () => loadScenario(file, {
    models, ...(o.env ? { env: o.env } : {}), offline: true,
    endpointOf: (alias, spec) => bound.find(b => b.alias === alias && b.spec === spec)?.apiBase,
  }));
  // A file whose dialogues, tasks or models changed (or another scenario) names another run: its
  // steps would not fit the stored trials, and its judges would be added to this run. Nothing is written.
  if (scenarioRunId(scenario, run.config.repeats) !== runId) {
    throw new ConfigError([{ field: '--scenario', message: `${file} now describes another run than ${runId}: its dialogues, tasks or models differ from those the run was made with (a changed judge prompt or rubric would not). Rescore reads the run's own scenario: put back the file it was made with, or name a copy of it with --scenario FILE; \`scenario run\` of this file starts that other run` }]);
  }
  const runArgs = rerunArgs(bound, o.env ?? process.env);
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

/**
 * The scenario file bound to the run's models. Its models are the run's (`--model` of rescore is
 * no flag): a binding the file has no alias for means the file is not the run's scenario.
 */
function boundScenario(runId: string, file: string, load: () => Scenario): Scenario {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(error.issues.map(i => i.field !== '--model' ? i : {
      field: '--scenario',
      message: `${file} does not fit run ${runId}, whose models it cannot bind: ${i.message.replace(/ \(write --model [^)]*\)$/, '')}; name the run's own scenario file with --scenario FILE`,
    }), { cause: error });
  }
}

/** A model binding of a stored run: who an alias was, and where it was called. */
interface Binding {
  alias: string;
  spec: string;
  /** The base URL it was called at; null: none of its own. */
  apiBase: string | null;
  /** The file's own model for the alias, which holds what a spec does not (a script, headers). */
  asFiled: boolean;
  /** The file gives it its endpoint (api_base or base_url). */
  endpointFiled: boolean;
}

/**
 * The run's own model bindings (the `--model` overrides it was made with, every swept variant):
 * judge trials are identified by the judge's spec and endpoint, so the file alone would name other
 * judges. Every model keeps the endpoint the run called it at, wherever that came from (the file,
 * --base-url, the environment).
 */
function storedBindings(stored: StoredScenarioConfig | undefined): Binding[] {
  const out: Binding[] = [];
  const specsOf = new Map<string, Set<string>>();
  for (const v of stored?.variants ?? []) {
    for (const [alias, m] of Object.entries(v.models)) {
      const specs = specsOf.get(alias) ?? specsOf.set(alias, new Set()).get(alias)!;
      if (specs.has(m.spec)) continue;
      specs.add(m.spec);
      out.push({ alias, spec: m.spec, apiBase: m.apiBase ?? null, asFiled: false, endpointFiled: false });
    }
  }
  for (const b of out) {
    const entry = stored?.config.models?.[b.alias];
    b.asFiled = specsOf.get(b.alias)!.size === 1 && entry?.model !== undefined && b.spec === `${entry.type ?? 'openai'}:${entry.model}`;
    b.endpointFiled = b.asFiled && (entry?.api_base ?? entry?.base_url) !== undefined;
  }
  return out;
}

/**
 * What `paideia scenario run FILE` needs besides the file and the store to name the run again:
 * its `--model` bindings, and the `--base-url` its openai models shared when the file does not
 * give it (and OPENAI_BASE_URL is not it already).
 */
function rerunArgs(bound: ReadonlyArray<Binding>, env: Env): string[] {
  const args = bound.filter(b => !b.asFiled).flatMap(b => ['--model', `${b.alias}=${b.spec}`]);
  const openai = bound.filter(b => b.spec.startsWith('openai:'));
  const shared = new Set(openai.map(b => b.apiBase));
  const [base] = shared;
  if (shared.size === 1 && typeof base === 'string' && openai.some(b => !b.endpointFiled) && env.OPENAI_BASE_URL !== base) args.push('--base-url', base);
  return args;
}
