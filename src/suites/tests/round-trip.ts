import type { ChatRequest, TestDefinition } from '../../core/index.js';
import { inputText, languageName } from './languages.js';

function translate(text: string, from: string, to: string): ChatRequest['messages'] {
  return [
    { role: 'system', content: `You are a professional ${from}-${to} translator. Reply with the translation only.` },
    { role: 'user', content: `Translate this ${from} text into ${to}:\n\n${text}` },
  ];
}

/**
 * Translate into the pivot language, then, in a new conversation, translate the model's own
 * pivot text back; chrF++ of the back-translation against the original.
 */
export const roundTrip: TestDefinition = {
  name: 'round_trip',
  promptVersion: 'round_trip.v1',
  description: 'Translate into the pivot language, then the model\'s own output back in a new conversation; chrF++ against the original. A pivot step that did not translate (chrF++ of the pivot against the source of 65 or more: the source copied, quoted or lightly edited) scores 0.',
  render(item, previous) {
    const text = inputText(item.input, 'text', item.id);
    const from = languageName(inputText(item.input, 'from', item.id));
    const via = languageName(inputText(item.input, 'via', item.id));
    if (previous.length === 0) {
      // The gold baseline answers with the source's own pivot translation when the item carries one.
      const pivotReference = typeof item.pivot_reference === 'string' ? item.pivot_reference : text;
      return { messages: translate(text, from, via), params: {}, hints: { copy: text, gold: pivotReference } };
    }
    if (previous.length === 1) {
      const pivot = previous[0]!.text;
      return { messages: translate(pivot, via, from), params: {}, hints: { copy: pivot, gold: item.references?.[0] ?? text } };
    }
    return null;
  },
  scorers: [{ name: 'round-trip-chrf', args: { wordOrder: 2 } }],
};
