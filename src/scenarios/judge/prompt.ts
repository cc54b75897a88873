import type { ChatMessage } from '../../core/chat-model.js';
import { stripReasoning, type DialogueMessage } from '../memory.js';
import { renderTemplate } from '../template.js';
import type { Anchor, Evaluation } from '../types.js';
import { promptModeInstruction } from './format.js';

export const DIALOG_PLACEHOLDER = 'messages.as_dialog()';
export const ANCHORS_PLACEHOLDER = 'anchors';

/** `speaker: text` per message, reasoning stripped (ELMES `messages.as_dialog()`); the start prompt under its role. */
export function asDialog(messages: ReadonlyArray<DialogueMessage>): string {
  return messages.map(m => `${m.speaker === 'START' ? (m.role ?? 'user') : m.speaker}: ${stripReasoning(m.content)}`).join('\n');
}

const REASONING_BLOCK = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>[ \t]*\n?/gi;

/**
 * The expert-scored examples as one block of text. Reasoning blocks (`<think>...</think>` and the
 * like) in an anchor's dialogue are dropped, as they are from the dialogue being judged.
 */
export function anchorsBlock(anchors: ReadonlyArray<Anchor>): string {
  if (anchors.length === 0) return '';
  const parts = anchors.map((a, i) => {
    const lines = [`### Example ${i + 1}`];
    const vars = Object.entries(a.task);
    if (vars.length) lines.push(`Task: ${vars.map(([k, v]) => `${k} = ${v}`).join('; ')}`);
    lines.push('Dialogue:', a.dialogue.replace(REASONING_BLOCK, '').trim(), `Expert scores: ${JSON.stringify(a.scores)}`);
    if (a.note) lines.push(`Expert note: ${a.note}`);
    return lines.join('\n');
  });
  return ['These examples were scored by experts. Score the dialogue you are given on the same standard.', ...parts].join('\n\n');
}

/**
 * The judge's messages for one dialogue:
 * - `{task.<field>}`, `{messages.as_dialog()}` and `{anchors}` filled in;
 * - anchors, when the prompt has no `{anchors}`, appended to the system message (one is added if needed);
 * - the dialogue, when no message has `{messages.as_dialog()}`, sent as a final user message;
 * - in prompt mode, the format instruction appended to the final user message.
 */
export function judgeMessages(evaluation: Evaluation, task: Readonly<Record<string, string>>, dialogue: ReadonlyArray<DialogueMessage>): ChatMessage[] {
  const dialogText = asDialog(dialogue);
  const anchors = anchorsBlock(evaluation.anchors);
  const usesDialog = evaluation.prompt.some(p => p.content.includes(`{${DIALOG_PLACEHOLDER}}`));
  const usesAnchors = evaluation.prompt.some(p => p.content.includes(`{${ANCHORS_PLACEHOLDER}}`));
  const lookup = (name: string): string | undefined => {
    if (name === DIALOG_PLACEHOLDER) return dialogText;
    if (name === ANCHORS_PLACEHOLDER) return anchors;
    if (name.startsWith('task.') && Object.hasOwn(task, name.slice(5))) return task[name.slice(5)];
    return undefined;
  };
  const messages: ChatMessage[] = evaluation.prompt.map((p, i) => ({
    role: p.role,
    content: renderTemplate(p.content, lookup, `evaluation.prompt.${i}.content`),
  }));
  if (anchors && !usesAnchors) {
    const system = messages.find(m => m.role === 'system');
    if (system) system.content = `${system.content}\n\n${anchors}`;
    else messages.unshift({ role: 'system', content: anchors });
  }
  if (!usesDialog) messages.push({ role: 'user', content: `Dialogue to evaluate:\n${dialogText}` });
  if (evaluation.formatMode === 'prompt') {
    const last = messages[messages.length - 1]!;
    if (last.role === 'user') last.content = `${last.content}\n\n${promptModeInstruction(evaluation.format)}`;
    else messages.push({ role: 'user', content: promptModeInstruction(evaluation.format) });
  } else if (messages[messages.length - 1]!.role !== 'user') {
    messages.push({ role: 'user', content: 'Evaluate the dialogue and submit your scores with the function.' });
  }
  return messages;
}
