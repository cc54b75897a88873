import { z } from 'zod';
import type { ChatMessage, Item } from '../../core/index.js';
import { extractJsonObject, type ParsedTutorAnswer } from '../../scoring/tutor-edit/index.js';
import { languageName } from '../tests/languages.js';

/** Version of the rubric prompt below; part of every stored explanation score's args. Bump on any change of wording. */
export const RUBRIC_VERSION = 'explanation-rubric.v1';

/** What a judge must answer. */
export interface JudgeVerdict {
  pass: boolean;
  reason: string;
}

const VerdictSchema = z.object({ pass: z.boolean(), reason: z.string() });

/** The reference answer of a tutor_accuracy item, from its `answer` field or its first accepted sentence. */
export function referenceOf(item: Item): { hasError: boolean; wrongSpan: string | null; correction: string | null; corrected: string } {
  const sentence = String(item.input.sentence ?? '');
  const key = (item.answer ?? {}) as Partial<{ has_error: boolean; wrong_span: string | null; correction: string | null; corrected_sentence: string }>;
  const corrected = key.corrected_sentence ?? item.accepted?.[0] ?? sentence;
  return {
    hasError: key.has_error ?? corrected !== sentence,
    wrongSpan: key.wrong_span ?? null,
    correction: key.correction ?? null,
    corrected,
  };
}

const RUBRIC = [
  'PASS only when every point holds:',
  '1. Correct: what it says about the language is true (the rule, form, agreement or spelling it names is right for this sentence).',
  '2. On target: it explains the error the reference names, or, when the reference says there is no error, it does not invent one.',
  '3. Helpful: a learner could follow it and would learn why the right form is right, not only what it is.',
  '4. Not misleading: no claim that contradicts the reference correction or would teach the learner something wrong.',
  "If the tutor's correction itself is wrong, the explanation FAILS, however well written.",
  'Judge the explanation only; ignore its tone, length and formatting.',
].join('\n');

/**
 * The judge's prompt: the learner's sentence, the reference correction, the tutor's correction and
 * explanation, and the rubric. Every string that came from a model is quoted as data.
 */
export function rubricMessages(item: Item, answer: ParsedTutorAnswer): ChatMessage[] {
  const lang = languageName(item.language);
  const ref = referenceOf(item);
  const reference = ref.hasError
    ? `The sentence has one error${ref.wrongSpan ? `: "${ref.wrongSpan}" should be "${ref.correction ?? ''}"` : ''}. Corrected sentence: ${ref.corrected}`
    : 'The sentence has no error; it should be left unchanged.';
  const tutor = answer.has_error
    ? `The tutor says the sentence has an error${answer.wrong_span ? `: "${answer.wrong_span}" should be "${answer.correction ?? ''}"` : ''}. Tutor's corrected sentence: ${answer.corrected_sentence}`
    : `The tutor says the sentence has no error. Tutor's sentence: ${answer.corrected_sentence}`;
  return [
    {
      role: 'system',
      content: `You are an experienced teacher of ${lang} reviewing feedback that a tutor gave to a learner. ` +
        `Decide whether the tutor's explanation is correct and helpful for the learner.\n\n${RUBRIC}\n\n` +
        'Reply with one JSON object and nothing else: {"pass": true or false, "reason": "one sentence saying why"}',
    },
    {
      role: 'user',
      content: [
        `Learner's sentence (${lang}):\n${String(item.input.sentence ?? '')}`,
        `Reference (correct) answer:\n${reference}`,
        `Tutor's correction:\n${tutor}`,
        `Tutor's explanation:\n<<<\n${answer.explanation ?? ''}\n>>>`,
      ].join('\n\n'),
    },
  ];
}

/** The follow-up sent after an answer that did not fit the verdict shape. */
export function formatRetryMessage(problem: string): ChatMessage {
  return { role: 'user', content: `Your answer did not fit the required format (${problem}). Reply again with one JSON object only: {"pass": true or false, "reason": "one sentence"}` };
}

/** Read a judge's reply; never throws. */
export function parseVerdict(text: string): { ok: true; verdict: JudgeVerdict } | { ok: false; problem: string } {
  try {
    return { ok: true, verdict: VerdictSchema.parse(extractJsonObject(text)) };
  } catch (e) {
    const problem = e instanceof z.ZodError ? e.issues.map(i => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ') : (e as Error).message;
    return { ok: false, problem };
  }
}
