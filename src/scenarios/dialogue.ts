import { latestCallsOf } from '../engine/history.js';
import type { JsonValue } from '../core/json.js';
import type { Store } from '../core/store.js';
import type { Trial } from '../core/trial.js';
import type { DialogueMessage } from './memory.js';
import type { PromptMessage } from './types.js';

/** Artifact kinds this module writes. */
export const DIALOGUE_KIND = 'dialogue';
export const SCENARIO_KIND = 'scenario';

/**
 * How a dialogue stands: `running` (not finished; a resume continues it), `ended` (the walk
 * reached END), `capped` (stopped by globals.recursion_limit, partial transcript kept and judged)
 * or `failed` (a model call failed after its retries; not judged).
 */
export type DialogueStatus = 'running' | 'ended' | 'capped' | 'failed';

/** Per-dialogue metadata kept beside the calls (artifact kind `dialogue`, key = trial id). */
export interface DialogueMeta {
  trialId: string;
  taskId: string;
  variant: string;
  repeat: number;
  status: DialogueStatus;
  /** What ended it: END through a router's condition or a plain edge, or a loop's max_turns. */
  endedBy?: 'end' | 'max_turns' | 'recursion_limit' | 'error';
  /** The start prompt as rendered for this task, when the scenario has one. */
  start?: PromptMessage;
  /** One entry per model turn: step = index of the CallRecord. */
  turns: Array<{ step: number; agent: string; model: string }>;
  error?: string;
}

export function metaToJson(meta: DialogueMeta): JsonValue {
  return JSON.parse(JSON.stringify(meta)) as JsonValue;
}

/** A stored dialogue: what the judges read. Built from the store only, never from live calls. */
export interface StoredDialogue {
  trial: Trial;
  meta: DialogueMeta;
  messages: DialogueMessage[];
}

export async function loadStoredDialogues(store: Store, runId: string): Promise<Map<string, StoredDialogue>> {
  const [trials, metas] = await Promise.all([store.listTrials(runId), store.listArtifacts(runId, DIALOGUE_KIND)]);
  const metaOf = new Map(metas.map(m => [m.key, m.value as unknown as DialogueMeta]));
  // Only the dialogues' own calls (not their judges'), a page at a time.
  const byTrial = await latestCallsOf(store, runId, new Set(metaOf.keys()));
  const out = new Map<string, StoredDialogue>();
  for (const trial of trials) {
    const meta = metaOf.get(trial.id);
    if (!meta) continue;
    const steps = byTrial.get(trial.id) ?? [];
    const messages: DialogueMessage[] = meta.start ? [{ speaker: 'START', role: meta.start.role, content: meta.start.content }] : [];
    for (const turn of meta.turns) {
      const call = steps[turn.step];
      if (call?.status !== 'ok' || !call.result) break;
      messages.push({ speaker: turn.agent, content: call.result.text });
    }
    out.set(trial.id, { trial, meta, messages });
  }
  return out;
}
