import type { TestDefinition } from '../../core/index.js';
import { inputText, languageName } from './languages.js';

/** Produce one inflected form of a lemma; marked by exact match against every form the source lists. */
export const grammarForms: TestDefinition = {
  name: 'grammar_forms',
  promptVersion: 'grammar_forms.v1',
  description: 'Give one inflected form (e.g. genitive singular) of a dictionary word; exact match after light normalisation.',
  render(item, previous) {
    if (previous.length > 0) return null;
    const lemma = inputText(item.input, 'lemma', item.id);
    const label = inputText(item.input, 'formLabel', item.id);
    const pos = typeof item.input.pos === 'string' ? `${item.input.pos} ` : '';
    const gender = typeof item.input.gender === 'string' ? ` (${item.input.gender === 'fem' ? 'feminine' : 'masculine'})` : '';
    const lang = languageName(item.language);
    return {
      messages: [
        { role: 'system', content: `You are an expert tutor of ${lang}. Answer with the requested word form only: no explanation, no quotes, no full stop.` },
        { role: 'user', content: `Give the ${label} of the ${lang} ${pos}"${lemma}"${gender}.` },
      ],
      params: {},
      hints: { copy: lemma, gold: item.accepted?.[0] ?? '' },
    };
  },
  scorers: [{ name: 'exact' }],
};
