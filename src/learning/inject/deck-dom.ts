import type { MiniDocument, MiniElement, MiniNode } from 'jsdom';
import { parseHtml } from '../decks/dom.js';

/** A deck parsed for editing; `serialise` gives the document back as the sanitiser writes it. */
export interface DeckDom {
  doc: MiniDocument;
  slides: MiniElement[];
  /** Index of the slide holding an element, or -1 outside every slide. */
  slideOf(el: MiniElement): number;
  serialise(): string;
}

export function parseDeck(html: string): DeckDom {
  const doc = parseHtml(html).window.document;
  const slides = [...doc.querySelectorAll('section.slide')];
  return {
    doc,
    slides,
    slideOf: el => {
      const slide = el.closest('section.slide');
      return slide ? slides.indexOf(slide) : -1;
    },
    serialise: () => `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`,
  };
}

const SEPARATED = new Set(['TD', 'TH', 'TR', 'LI', 'P', 'DIV', 'BR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'DT', 'DD', 'CAPTION', 'FIGCAPTION', 'SECTION', 'TABLE', 'UL', 'OL']);

/** Text of a node as read: spaces collapsed, and a space between cells and blocks (textContent runs them together). */
export function textOf(node: MiniNode): string {
  let out = '';
  const walk = (n: MiniNode) => {
    if (n.nodeType === 3) { out += n.nodeValue ?? ''; return; }
    if (n.nodeType !== 1 || n.nodeName === 'STYLE' || n.nodeName === 'SCRIPT') return;
    const separated = SEPARATED.has(n.nodeName.toUpperCase());
    if (separated) out += ' ';
    for (const child of [...n.childNodes]) walk(child);
    if (separated) out += ' ';
  };
  walk(node);
  return out.replace(/\s+/g, ' ').trim();
}

/** Every text node under `node`, in document order. */
export function textNodes(node: MiniNode): MiniNode[] {
  const out: MiniNode[] = [];
  const walk = (n: MiniNode) => {
    if (n.nodeType === 3) out.push(n);
    for (const child of [...n.childNodes]) walk(child);
  };
  walk(node);
  return out;
}

/** Elements that hold text and no block-level child: the units a rule or an example is stated in. */
export function textBlocks(dom: DeckDom): MiniElement[] {
  return dom.slides.flatMap(slide => [...slide.querySelectorAll('p, li, td, th, h1, h2, h3, h4, h5, h6, dd, dt, figcaption, div, span, caption')])
    .filter(el => !el.querySelectorAll('p, li, td, th, div, table, ul, ol').length && textOf(el) !== '');
}

const WORD = '[\\p{L}\\p{M}\\p{N}:ʔʼ\'’-]';
/** A regex matching any of `tokens` as a whole token (not inside a longer word or affix). */
export function tokenPattern(tokens: readonly string[]): RegExp {
  const alternatives = [...tokens].sort((a, b) => b.length - a.length).map(t => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<!${WORD})(?:${alternatives.join('|')})(?!${WORD})`, 'gu');
}

/** Lower-case words of a text, for overlap between a rule and a deck's wording. */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? []);
}
