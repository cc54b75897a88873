import { ConfigError, parseModelSpec, type Store, type TestDefinition, type Trial } from '../core/index.js';
import { executeTrials } from '../engine/execute.js';
import { pricedCosts } from '../engine/pricing.js';
import { runEndpoints } from '../engine/endpoints.js';
import type { ScorerRegistry } from '../scoring/registry.js';
import { scoreExplanations, type JudgingSummary } from './judging/aggregate.js';
import { judgeSpecs, loadJudgingConfig } from './judging/config.js';
import { SUITE_RUN, suiteSteps } from './run.js';

export interface RescoreSummary {
  /** Trials whose outcome was derived again from their stored calls. */
  scored: number;
  /** Trials whose step now asks for a call the store does not hold (a changed prompt): not rescored. */
  needsCall: number;
  explanations?: JudgingSummary;
}

/**
 * Score every finished trial of a stored suite run again from its stored answers with the current
 * scorers, and re-derive the explanation judgments from the stored judge calls: the same engine
 * loop as the run, told to call nothing.
 */
export async function rescoreSuite(store: Store, runId: string, tests: ReadonlyMap<string, TestDefinition>, scorers: ScorerRegistry): Promise<RescoreSummary> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}` }]);
  if (run.kind !== SUITE_RUN) throw new ConfigError([{ field: 'run-id', message: `run ${runId} is a ${run.kind} run, not a suite run` }]);
  const finished = await finishedTrials(store, runId);
  const judging = await loadJudgingConfig(store, runId);
  const specs = [...run.config.models, ...(judging ? judgeSpecs(judging) : [])];
  // A run moved to another endpoint on resume holds calls under each: every one is replayed.
  const ends = await runEndpoints(store, runId, { ...run.config.endpoints, ...judging?.endpoints });
  const endpoints = ends.current;
  const summary = await executeTrials({
    store, runId, trials: finished, offline: true, models: new Map(),
    ...suiteSteps({ store, run, used: new Set(finished.map(t => t.test)), tests, scorers, judging }),
    identityOf: alias => ({ spec: specs.find(s => s.alias === alias)?.spec ?? alias, endpoint: endpoints[alias], formerEndpoints: ends.former[alias] }),
    cost: pricedCosts(run.prices, specs, alias => endpoints[alias]),
    ...(run.config.maxTokens !== undefined ? { maxTokens: run.config.maxTokens } : {}),
    poolOf: t => ({ name: parseModelSpec(t.modelSpec).provider, size: 64 }),
  });
  const explanations = judging ? await scoreExplanations(store, runId, judging) : undefined;
  return { scored: summary.done, needsCall: summary.needsCall, ...(explanations ? { explanations } : {}) };
}

/**
 * Only what finished was scored; a pending or failed trial has nothing to score again. (Runs stored
 * before trial statuses existed have none: every trial is replayed.) Apart, so that the statuses and
 * the unfinished trials are let go before the trials are replayed.
 */
async function finishedTrials(store: Store, runId: string): Promise<Trial[]> {
  const [trials, statuses] = await Promise.all([store.listTrials(runId), store.listTrialStatuses(runId)]);
  return statuses.size ? trials.filter(t => statuses.get(t.id) === 'done') : trials;
}
