import type { ChatRequest } from '../../core/index.js';
import type { CourseOutline } from '../units/outline.js';
import { outlineMarkdown } from '../units/outline-markdown.js';

/** Bumped when the generator's prompt or how its answer is read changes. */
export const DECK_PROMPT_VERSION = 'deck-1';

/** A deck is long HTML: the run's default bound on generated tokens (4,096) would cut most decks short. */
export const DECK_MAX_TOKENS = 12_000;

const SYSTEM = [
  'You write teaching slide decks as one self-contained HTML document.',
  'Each slide is a <section class="slide"> of exactly 1280x720 pixels; practice slides carry data-role="exercise".',
  'Use inline CSS only; images must be inline (<svg> or data: URLs). No scripts, no external links, fonts or stylesheets.',
  'Answer with the HTML document only.',
].join(' ');

/**
 * The generator's request: the course outline (which describes the tests but holds none of their
 * items or answers) and the deck format. Nothing else about the unit reaches the generator.
 */
export function deckRequest(outline: CourseOutline): ChatRequest {
  return {
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `Write the slide deck for this course outline.\n\n${outlineMarkdown(outline)}` },
    ],
    params: { temperature: 0, maxTokens: DECK_MAX_TOKENS },
    context: { itemId: outline.unit, role: 'generator' },
  };
}

/** The HTML of an answer: the inside of a fenced ```html block when there is one, else the whole text. */
export function deckHtmlOf(answer: string): string {
  const fenced = /```(?:html)?[ \t]*\r?\n([\s\S]*?)```/i.exec(answer);
  return (fenced ? fenced[1]! : answer).trim();
}
