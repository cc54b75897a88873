import { commandHint } from '../../core/command-hint.js';
import { ConfigError, type CallRecord, type Judgment, type Store, type Trial } from '../../core/index.js';
import { latestCallsOf } from '../../engine/history.js';
import type { StudyObservation } from '../study/schema.js';

/**
 * The observation id of a judged trial of any run: `<item>/<model alias>/<repeat>` (a scenario
 * dialogue's task, variant and repeat; a suite trial's item, model and repeat). Expert files name
 * observations by it. A judgment that targets its own trial (a rating study's cell) is of the
 * trial's own item, the study's observation id.
 */
export function observationIdOf(target: Trial, judgment?: Pick<Judgment, 'trialId' | 'targetTrialId'>): string {
  if (judgment && judgment.targetTrialId === judgment.trialId) return target.itemId;
  return `${target.itemId}/${target.modelAlias}/${target.repeat}`;
}

/**
 * What the judges of a stored run judged, as study observations: each finished trial that a
 * judgment targets (every finished trial when the run has no judges), its text read from its
 * stored calls only - the task as first posed (system prompts left out) and every answer,
 * labelled by the role that gave it.
 */
export async function observationsFromRun(store: Store, runId: string): Promise<StudyObservation[]> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: 'observations.run', message: `no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
  const [trials, statuses, judgments] = await Promise.all([store.listTrials(runId), store.listTrialStatuses(runId), store.listJudgments(runId)]);
  const judged = new Set(judgments.filter(j => j.targetTrialId !== j.trialId).map(j => j.targetTrialId));
  const finished = trials.filter(t => t.target === undefined && statuses.get(t.id) === 'done');
  const chosen = judged.size ? finished.filter(t => judged.has(t.id)) : finished;
  if (chosen.length === 0) throw new ConfigError([{ field: 'observations.run', message: `run ${runId} has no finished trials to rate; finish it first (${commandHint(['runs'], store.url)} shows its state)` }]);
  const calls = await latestCallsOf(store, runId, new Set(chosen.map(t => t.id)));
  return chosen.map(t => ({ id: observationIdOf(t), text: transcript(t, calls.get(t.id) ?? []) }));
}

function transcript(trial: Trial, steps: ReadonlyArray<CallRecord | undefined>): string {
  const lines: string[] = [];
  const first = steps[0];
  for (const m of first?.request.messages ?? []) if (m.role !== 'system' && typeof m.content === 'string') lines.push(`[${m.role}] ${m.content}`);
  for (const c of steps) {
    if (!c || c.status !== 'ok' || !c.result) break;
    lines.push(`[${c.request.context?.role ?? trial.modelAlias}] ${c.result.text}`);
  }
  return lines.join('\n\n');
}
