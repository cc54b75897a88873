import type { TestDefinition } from '../../core/index.js';
import { inputText, languageName } from './languages.js';

/** The answer shape the model must return, documented in the prompt and parsed by the `tutor-edit` scorer. */
export interface TutorAnswer {
  has_error: boolean;
  wrong_span: string | null;
  correction: string | null;
  corrected_sentence: string;
  explanation: string;
}

const SHAPE = `{"has_error": true or false, "wrong_span": "the wrong words exactly as written, or null", "correction": "what replaces them, or null", "corrected_sentence": "the whole sentence after your correction (unchanged if it had no error)", "explanation": "one or two sentences a learner can follow"}`;

/**
 * A learner's sentence with one error or none: find and fix the error and change nothing else,
 * or say there is none and leave the sentence alone.
 */
export const tutorAccuracy: TestDefinition = {
  name: 'tutor_accuracy',
  promptVersion: 'tutor_accuracy.v1',
  description: 'Find and fix the one error in a learner\'s sentence (or say there is none) without changing anything else; answer as JSON.',
  render(item, previous) {
    if (previous.length > 0) return null;
    const sentence = inputText(item.input, 'sentence', item.id);
    const lang = languageName(item.language);
    const answer = item.answer as Partial<TutorAnswer> | undefined;
    const gold: TutorAnswer = {
      has_error: answer?.has_error ?? false,
      wrong_span: answer?.wrong_span ?? null,
      correction: answer?.correction ?? null,
      corrected_sentence: answer?.corrected_sentence ?? item.accepted?.[0] ?? sentence,
      explanation: '',
    };
    const copy: TutorAnswer = { has_error: false, wrong_span: null, correction: null, corrected_sentence: sentence, explanation: '' };
    return {
      messages: [
        {
          role: 'system',
          content: `You are a patient, precise tutor of ${lang}. A learner's sentence has at most one error. ` +
            `If it has one, correct only that error and change nothing else; if it has none, say so and leave it unchanged. ` +
            `Reply with one JSON object and nothing else, in this shape:\n${SHAPE}`,
        },
        { role: 'user', content: `Learner's sentence:\n${sentence}` },
      ],
      params: {},
      hints: { copy: JSON.stringify(copy), gold: JSON.stringify(gold) },
    };
  },
  scorers: [{ name: 'tutor-edit' }],
};
