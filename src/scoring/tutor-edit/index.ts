import { z } from 'zod';
import type { JsonObject, Scorer, ScoreResult } from '../../core/index.js';
import { matchesAccepted, sameEdit } from '../../metrics/index.js';

const AnswerSchema = z.object({
  has_error: z.boolean(),
  wrong_span: z.string().nullable().optional(),
  correction: z.string().nullable().optional(),
  corrected_sentence: z.string(),
  explanation: z.string().optional(),
});

/** The first JSON object in a reply, tolerating code fences and text around it. */
export function extractJsonObject(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = fenced ? fenced[1]! : text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object in the answer');
  return JSON.parse(body.slice(start, end + 1));
}

/** The tutor answer as the `tutor-edit` scorer reads it. */
export type ParsedTutorAnswer = z.infer<typeof AnswerSchema>;

/**
 * Parse a tutor_accuracy reply (code fences and text around the JSON tolerated). Never throws:
 * an unparseable reply comes back with the reason, which marking records.
 */
export function parseTutorAnswer(text: string): { ok: true; answer: ParsedTutorAnswer } | { ok: false; reason: string } {
  try {
    return { ok: true, answer: AnswerSchema.parse(extractJsonObject(text)) };
  } catch (e) {
    const why = e instanceof z.ZodError ? e.issues.map(i => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ') : (e as Error).message;
    return { ok: false, reason: `unparseable answer: ${why}` };
  }
}

/**
 * The tutor test's marking: correct only when the model found and fixed the error and changed
 * nothing else (token-level edit comparison), or, for a correct sentence, said so and left it
 * unchanged. An unparseable answer is wrong, with the reason recorded; it never throws.
 */
export function tutorEditScorer(args: JsonObject = {}): Scorer {
  return {
    ref: { name: 'tutor-edit', version: '1', args },
    score: function tutorEdit({ item, outputs }): ScoreResult {
      const sentence = String(item.input.sentence ?? '');
      const key = item.answer as { has_error?: boolean; corrected_sentence?: string } | undefined;
      const expected = key?.corrected_sentence ?? item.accepted?.[0] ?? sentence;
      const hasError = key?.has_error ?? !matchesAccepted(expected, [sentence]).matched;
      const read = parseTutorAnswer(outputs.at(-1) ?? '');
      if (!read.ok) return { value: 0, reason: read.reason };
      const parsed = read.answer;
      const details: JsonObject = { modelSaysError: parsed.has_error, hasError };
      if (!hasError) {
        if (parsed.has_error) return { value: 0, reason: 'flagged an error in a correct sentence', details };
        const unchanged = matchesAccepted(parsed.corrected_sentence, [sentence]).matched;
        return unchanged ? { value: 1, details } : { value: 0, reason: 'said there was no error but changed the sentence', details };
      }
      if (!parsed.has_error) return { value: 0, reason: 'missed the error', details };
      const edit = sameEdit(sentence, expected, parsed.corrected_sentence);
      return edit.ok ? { value: 1, details } : { value: 0, reason: edit.reason, details: { ...details, edit: edit.reason, editCode: edit.code } };
    },
  };
}
