import { stripReasoning } from '../metrics/reasoning.js';
import type { ChatMessage } from '../core/chat-model.js';

/** One message of a dialogue transcript. `speaker` is an agent name, or START for the task's start prompt. */
export interface DialogueMessage {
  speaker: string;
  content: string;
  /** Role of the start prompt as the scenario gives it (START only). */
  role?: ChatMessage['role'];
}

export interface MemorySettings {
  enable: boolean;
  /** How many of its own earlier turns the agent remembers, each with the messages that led to it. */
  keepTurns: number;
}

// One definition for marking and dialogues alike (paideia/metrics).
export { stripReasoning } from '../metrics/reasoning.js';

/**
 * The earlier messages an agent sees before its next turn:
 * - the messages since its own last turn, always (what it is answering);
 * - with memory enabled, also its last `keepTurns` own turns and the messages that led to each;
 * - with memory disabled, nothing older (as if keepTurns were 0).
 * Its own turns become `assistant` messages, everyone else's `user`; the start prompt keeps its role.
 */
export function memoryWindow(agent: string, transcript: ReadonlyArray<DialogueMessage>, memory: MemorySettings): ChatMessage[] {
  const keep = memory.enable ? memory.keepTurns : 0;
  const own: number[] = [];
  transcript.forEach((m, i) => { if (m.speaker === agent) own.push(i); });
  const start = own.length > keep ? own[own.length - keep - 1]! + 1 : 0;
  return transcript.slice(start).map(m => ({
    role: m.speaker === agent ? 'assistant' : m.speaker === 'START' ? (m.role ?? 'user') : 'user',
    content: stripReasoning(m.content),
  }));
}
