import type { ChatMessage, ChatRequest } from '../../core/index.js';
import type { Unit, UnitItem, ItemSet } from '../units/schema.js';
import { sampleFrames } from '../ablation/index.js';
import type { Frames } from '../run/config.js';
import type { SlideRecord } from './deck-record.js';

/** Bumped when a learner prompt, or how its answer is read, changes. */
export const LEARNER_PROMPT_VERSION = 'learner-1';

export type TestPhase = 'pretest' | 'posttest' | 'near' | 'far';
export type Phase = TestPhase | 'study';

export type ProtocolStep =
  | { phase: 'study'; slide: SlideRecord; position: number; of: number }
  | { phase: TestPhase; set: ItemSet; index: number; item: UnitItem };

const TEST_SETS: ReadonlyArray<[TestPhase, ItemSet]> = [['posttest', 'source_items'], ['near', 'near_transfer'], ['far', 'far_transfer']];

/** The slides studied: all of them, or k frames drawn with the seed (the title always among them; ablation/sampleFrames). */
export function sampledSlides(slides: ReadonlyArray<SlideRecord>, frames: Frames, seed: number): SlideRecord[] {
  if (frames === 'all') return [...slides];
  return sampleFrames(slides.length, frames, seed).map(i => slides[i]!);
}

/**
 * The SLATE protocol as a list of calls, in order: pretest on the source items (no deck), the deck
 * page by page, then posttest on the same items and the near and far transfer tests.
 */
export function protocolSteps(unit: Unit, studied: ReadonlyArray<SlideRecord>): ProtocolStep[] {
  const items = (phase: TestPhase, set: ItemSet): ProtocolStep[] => unit[set].map((item, index) => ({ phase, set, index, item }));
  return [
    ...items('pretest', 'source_items'),
    ...studied.map((slide, i) => ({ phase: 'study' as const, slide, position: i + 1, of: studied.length })),
    ...TEST_SETS.flatMap(([phase, set]) => items(phase, set)),
  ];
}

const SYSTEM = 'You are a student learning about a language you have not studied before. Work carefully and use only what you are shown.';

export interface RequestContext {
  unit: Unit;
  /** The puzzle's own examples in every test context (ablation). */
  puzzleContext: boolean;
  /** The learner's notes from studying (posttest and transfer only). */
  notes?: string;
  /** Show slides as images (the learner's model accepts them) rather than as text. */
  images: boolean;
}

/**
 * One call of the protocol, in a fresh context holding only what the protocol allows: a test
 * item with (after study) the learner's own notes and (with puzzle context) the puzzle's examples;
 * or one slide with the notes so far. No request ever holds an answer of any test.
 */
export function learnerRequest(step: ProtocolStep, c: RequestContext): ChatRequest {
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
  if (step.phase === 'study') {
    const header = `You are studying a lesson about ${c.unit.language}, one slide at a time.\n\nYour notes so far:\n${c.notes ?? '(none yet)'}\n\nSlide ${step.position} of ${step.of}:`;
    const ask = 'Rewrite your notes so that they keep everything from the lesson you will need to solve exercises on it later, without the slides. Answer with the notes only.';
    messages.push(c.images && step.slide.png
      ? { role: 'user', content: `${header} (the image)\n\n${ask}`, images: [{ blob: step.slide.png }] }
      : { role: 'user', content: `${header}\n${step.slide.text}\n\n${ask}` });
  } else {
    const parts = [
      ...(c.puzzleContext ? [`Examples of ${c.unit.language} with their English translations:\n${c.unit.examples.map(e => `- ${e.source} = ${e.target}`).join('\n')}`] : []),
      ...(step.phase !== 'pretest' && c.notes !== undefined ? [`Your notes from the lesson:\n${c.notes}`] : []),
      `Question: ${step.item.prompt}`,
      'Think as much as you need, then end with one line of the form "Answer: <your answer>".',
    ];
    messages.push({ role: 'user', content: parts.join('\n\n') });
  }
  return { messages, params: { temperature: 0 }, context: { itemId: c.unit.id, role: `learner:${step.phase}` } };
}

/** The answer on the last "Answer:" line; null (unparseable, and so wrong) with its reason when there is none. */
export function parseAnswer(text: string): { answer: string | null; reason?: string } {
  const lines = [...text.matchAll(/^\s*\**answer\**\s*[:：]\s*(.*?)\s*$/gim)];
  const last = lines.at(-1)?.[1]?.replace(/^\*+|\*+$/g, '').trim();
  if (last) return { answer: last };
  return { answer: null, reason: 'no "Answer: ..." line in the reply' };
}
