import type { TestDefinition } from '../../core/index.js';
import { inputText } from './languages.js';

/** A closed fill-the-blank exercise, instruction in the learner's first language; exact match. */
export const exercises: TestDefinition = {
  name: 'exercises',
  promptVersion: 'exercises.v1',
  description: "Choose the option that completes a sentence; the instruction is in the learner's first language; exact match.",
  render(item, previous) {
    if (previous.length > 0) return null;
    const sentence = inputText(item.input, 'sentence', item.id);
    const instruction = inputText(item.input, 'instruction', item.id);
    const options = item.input.options;
    if (!Array.isArray(options) || options.length < 2 || !options.every(o => typeof o === 'string')) {
      throw new TypeError(`item ${item.id}: input.options must be a list of at least two strings`);
    }
    const list = (options as string[]).map((o, i) => `${String.fromCharCode(97 + i)}) ${o}`).join('\n');
    return {
      messages: [
        { role: 'user', content: `${instruction}\n\n${sentence}\n\n${list}\n\nAnswer with the word(s) of the correct option only.` },
      ],
      params: {},
      hints: { copy: sentence, gold: item.accepted?.[0] ?? '', options: options as string[] },
    };
  },
  scorers: [{ name: 'exact' }],
};
