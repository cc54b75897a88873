import type { Store } from '../../core/store.js';
import type { Trial } from '../../core/trial.js';
import { latestCallsOf } from '../../engine/history.js';
import { SCENARIO_JUDGE_STEP } from '../judge/index.js';

/** Failed dialogues or judge calls that share one error. */
export interface ScenarioFailureGroup {
  /** The model under test of the failed trials (the variant label). */
  model: string;
  step: 'dialogue' | 'judge';
  /** Alias of the model whose call failed (a student's turn fails a teacher's dialogue too). */
  caller: string;
  kind: string | null;
  statusCode: number | null;
  message: string;
  count: number;
  exampleTrialId: string;
}

const MAX_MESSAGE = 400;

/**
 * Why trials failed, from the store: each failed trial's newest failing call, grouped by model,
 * step, calling model and error, largest group first within a model. What `paideia run` prints
 * for suites, for dialogues and judges.
 */
export async function scenarioFailures(store: Store, runId: string, trials: ReadonlyArray<Trial>): Promise<ScenarioFailureGroup[]> {
  const statuses = await store.listTrialStatuses(runId);
  const failed = trials.filter(t => statuses.get(t.id) === 'failed');
  if (failed.length === 0) return [];
  const calls = await latestCallsOf(store, runId, new Set(failed.map(t => t.id)));
  const groups = new Map<string, ScenarioFailureGroup>();
  for (const t of [...failed].sort((a, b) => a.index - b.index)) {
    const call = (calls.get(t.id) ?? []).find(c => c?.status === 'error');
    const step = t.kind === SCENARIO_JUDGE_STEP ? 'judge' : 'dialogue';
    const caller = call?.model ?? t.modelAlias;
    const message = (call?.error?.message ?? '(no error message was stored)').slice(0, MAX_MESSAGE);
    const kind = call?.error?.kind ?? null;
    const statusCode = call?.error?.statusCode ?? null;
    const key = [t.modelAlias, step, caller, kind, statusCode, message].join('\u0000');
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { model: t.modelAlias, step, caller, kind, statusCode, message, count: 1, exampleTrialId: t.id });
  }
  return [...groups.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : b.count - a.count));
}

/** The groups as lines for stderr: `  3 x dialogue (tutor, HTTP 401): message`. */
export function failureLines(groups: ReadonlyArray<ScenarioFailureGroup>): string[] {
  return groups.map(g => `  ${g.count} x ${g.step} of ${g.model} (call by ${g.caller}${g.statusCode !== null ? `, HTTP ${g.statusCode}` : ''}${g.kind ? `, ${g.kind}` : ''}): ${g.message.replace(/\s+/g, ' ')}`);
}
