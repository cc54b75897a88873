import type { Store, TestDefinition } from '../core/index.js';
import type { ScorerRegistry } from '../scoring/registry.js';
import { judgeExplanations, loadJudgingConfig } from '../suites/judging/index.js';
import { scoreTrial } from './score.js';
import { trialStates } from './trial-state.js';

/**
 * Score every finished trial of a stored run again from its stored answers; no model is called.
 * A run whose explanations were judged gets its explanation scores recomputed from the stored
 * judge calls too (judgments never made stay pending; nothing is asked).
 */
export async function rescoreRun(store: Store, runId: string, tests: ReadonlyMap<string, TestDefinition>, registry: ScorerRegistry): Promise<{ scored: number; explanations?: number }> {
  const [trials, items, calls] = await Promise.all([store.listTrials(runId), store.listRunItems(runId), store.listCalls(runId)]);
  const byHash = new Map(items.map(v => [v.hash, v.item]));
  const states = trialStates(trials, calls, byHash, tests);
  const scorers = registry.forTests([...tests.values()].filter(t => trials.some(x => x.test === t.name)));
  let scored = 0;
  for (const t of trials) {
    const s = states.get(t.id)!;
    if (s.status !== 'done') continue;
    await store.saveScores(await scoreTrial(t, byHash.get(t.itemHash)!, s.results, scorers.get(t.test) ?? []));
    scored++;
  }
  const judging = await loadJudgingConfig(store, runId);
  if (!judging) return { scored };
  const { trials: explanations } = await judgeExplanations({ store, runId, config: judging, tests });
  return { scored, explanations };
}
