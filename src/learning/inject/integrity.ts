import type { Unit } from '../units/index.js';
import { parseDeck } from './deck-dom.js';
import type { DeckChange, InjectedDeck } from './types.js';

/** Items per added slide, so the leak stays inside 1280x720. */
const PER_SLIDE = 5;

/**
 * Assessment-integrity error: the transfer tests' items with their answers put into the deck, as
 * practice slides after the last one. A learner who copies them scores on near and far transfer
 * without having learnt the rules; the judges should notice (D1 "no answer leakage").
 */
export function leakAnswers(html: string, unit: Pick<Unit, 'near_transfer' | 'far_transfer'>, seed: number): InjectedDeck {
  const dom = parseDeck(html);
  const items = [
    ...unit.near_transfer.map((item, index) => ({ set: 'near_transfer' as const, index, prompt: item.prompt, answer: item.answer })),
    ...unit.far_transfer.map((item, index) => ({ set: 'far_transfer' as const, index, prompt: item.prompt, answer: item.answer })),
  ];
  const last = dom.slides.at(-1)!;
  const changes: DeckChange[] = [];
  let after = last;
  for (let start = 0; start < items.length; start += PER_SLIDE) {
    const chunk = items.slice(start, start + PER_SLIDE);
    const slide = dom.doc.createElement('section');
    slide.setAttribute('class', 'slide');
    slide.setAttribute('data-role', 'exercise');
    const heading = dom.doc.createElement('h2');
    heading.textContent = 'Practice with answers';
    const list = dom.doc.createElement('ul');
    for (const item of chunk) {
      const li = dom.doc.createElement('li');
      li.textContent = `${item.prompt} Answer: ${item.answer}`;
      list.append(li);
    }
    slide.append(heading, list);
    after.after(slide);
    after = slide;
    changes.push({ action: 'slide-added', slide: dom.slides.length + changes.length, items: chunk });
  }
  return { kind: 'answers-leaked', family: 'integrity', seed, html: dom.serialise(), changes };
}
