import type { TestDefinition } from '../../core/index.js';
import { inputText, languageName } from './languages.js';

/** Translate a sentence; marked by chrF++ against the source's reference translation. */
export const translation: TestDefinition = {
  name: 'translation',
  promptVersion: 'translation.v1',
  description: 'Translate a sentence between the two languages; chrF++ against the reference from a published parallel source.',
  render(item, previous) {
    if (previous.length > 0) return null;
    const text = inputText(item.input, 'text', item.id);
    const from = languageName(inputText(item.input, 'from', item.id));
    const to = languageName(inputText(item.input, 'to', item.id));
    return {
      messages: [
        { role: 'system', content: `You are a professional ${from}-${to} translator. Reply with the translation only.` },
        { role: 'user', content: `Translate this ${from} text into ${to}:\n\n${text}` },
      ],
      params: {},
      hints: { copy: text, gold: item.references?.[0] ?? item.accepted?.[0] ?? '' },
    };
  },
  scorers: [{ name: 'chrf', args: { wordOrder: 2 } }],
};
