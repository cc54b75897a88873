import type { CourseOutline } from '../units/outline.js';
import type { DeckGenerator } from './generator.js';
import { deckDocument, htmlText } from './html-text.js';

const list = (xs: ReadonlyArray<string>) => `<ul>${xs.map(x => `<li>${htmlText(x)}</li>`).join('')}</ul>`;
/** At most `n` entries per slide, so long outlines stay inside 1280x720. */
const chunks = <T>(xs: ReadonlyArray<T>, n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** `baseline:blank-deck`: a title slide and nothing else, the zero-information floor. */
export function createBlankDeckGenerator(): DeckGenerator {
  return {
    name: 'baseline:blank-deck', version: '1', args: {},
    generate: async function blankDeck(outline: CourseOutline) {
      return deckDocument(outline.title, [`<h1>${htmlText(outline.title)}</h1>`]);
    },
  };
}

/**
 * `baseline:outline`: the outline's own text as slides, with no teaching added: what a learner gets
 * from the material alone. It carries the examples as a table but no practice and no explanation.
 */
export function createOutlineDeckGenerator(): DeckGenerator {
  return {
    name: 'baseline:outline', version: '1', args: {},
    generate: async function outlineDeck(outline: CourseOutline) {
      const c = outline.requiredContent;
      const slides = [
        `<h1>${htmlText(outline.title)}</h1><p>${htmlText(outline.knowledgePoint)}</p>`,
        `<h2>Objectives</h2>${list(outline.objectives)}`,
        ...chunks(c.rules, 4).map(rules => `<h2>Rules</h2>${list(rules)}`),
        ...(c.terms.length ? chunks(c.terms, 6).map(t => `<h2>Terms</h2>${list(t.map(x => `${x.term}: ${x.definition}`))}`) : []),
        ...(c.exceptions.length ? [`<h2>Exceptions</h2>${list(c.exceptions)}`] : []),
        ...chunks(c.examples, 6).map(rows => `<h2>Examples</h2><table><tr><th>${htmlText(outline.language)}</th><th>English</th></tr>${
          rows.map(e => `<tr><td>${htmlText(e.source)}</td><td>${htmlText(e.target)}</td></tr>`).join('')}</table>`),
      ];
      return deckDocument(outline.title, slides);
    },
  };
}

/** The built-in generators by name; model-backed ones are resolved by the engine from a model spec. */
export const BASELINE_DECK_GENERATORS: Readonly<Record<string, () => DeckGenerator>> = {
  'baseline:blank-deck': createBlankDeckGenerator,
  'baseline:outline': createOutlineDeckGenerator,
};
