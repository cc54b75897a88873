import type { JsonObject } from '../../core/json.js';
import type { Store } from '../../core/store.js';
import { loadStoredDialogues } from '../dialogue.js';
import { SCENARIO_JUDGE_STEP } from '../judge/index.js';
import { stripReasoning } from '../memory.js';
import type { ScenarioRunData } from './stored.js';

/** One judge's answer about a dialogue, as the report shows it. */
export interface TranscriptJudgment {
  judge: string;
  repeat: number;
  /** The weighted (or ELMES) score, or null when the answer never fit the format. */
  value: number | null;
  /** Why it is unscored, when it is. */
  reason?: string;
  /** Every field the judge gave, reasons (str fields) included. */
  fields: JsonObject;
  /** The judge's raw answer (tool arguments or text), reasoning blocks removed. */
  raw: string;
}

/** A dialogue with its transcript and its judgments: what a reader opens from the report. */
export interface Transcript {
  trialId: string;
  model: string;
  taskId: string;
  repeat: number;
  status: string;
  /** The panel's score, when there is one. */
  score: number | null;
  messages: Array<{ speaker: string; content: string }>;
  judgments: TranscriptJudgment[];
}

/**
 * Every dialogue's transcript with its judges' answers, from the store. Only what the models said
 * is shown: reasoning blocks (`<think>...</think>`) are removed from turns and raw answers alike,
 * as they are from what the judges were shown.
 */
export async function scenarioTranscripts(store: Store, data: ScenarioRunData): Promise<Transcript[]> {
  const dialogues = await loadStoredDialogues(store, data.runId);
  const panel = new Map(data.scores.filter(s => data.evaluation && s.scorer.name === `judge:${data.evaluation.name}`).map(s => [s.trialId, s.value]));
  const byTarget = new Map<string, TranscriptJudgment[]>();
  for (const j of data.judgments) {
    if (j.producer.name !== SCENARIO_JUDGE_STEP) continue;
    const list = byTarget.get(j.targetTrialId) ?? byTarget.set(j.targetTrialId, []).get(j.targetTrialId)!;
    list.push({
      judge: j.rater.alias, repeat: j.repeat, value: j.value, ...(j.value === null && j.reason ? { reason: j.reason } : {}),
      fields: j.fields, raw: stripReasoning(j.raw ?? ''),
    });
  }
  return data.trials.flatMap(t => {
    const d = dialogues.get(t.id);
    if (!d) return [];
    return [{
      trialId: t.id, model: t.modelAlias, taskId: t.itemId, repeat: t.repeat, status: d.meta.status, score: panel.get(t.id) ?? null,
      messages: d.messages.map(m => ({ speaker: m.speaker === 'START' ? (m.role ?? 'user') : m.speaker, content: stripReasoning(m.content) })),
      judgments: (byTarget.get(t.id) ?? []).sort((a, b) => (a.judge < b.judge ? -1 : a.judge > b.judge ? 1 : a.repeat - b.repeat)),
    }];
  });
}
