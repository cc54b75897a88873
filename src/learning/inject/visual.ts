import { parseDeck, textOf } from './deck-dom.js';
import { greyCss, greyDeclarations } from './greyscale.js';
import type { DeckChange, InjectedDeck } from './types.js';

/** Visual error: every table in a slide becomes one paragraph per row, its cells joined by " - ". */
export function flattenTables(html: string, seed: number): InjectedDeck {
  const dom = parseDeck(html);
  const changes: DeckChange[] = [];
  // Innermost first, so a nested table is text before its parent is read.
  const tables = dom.slides.flatMap(s => [...s.querySelectorAll('table')]).reverse();
  for (const table of tables) {
    const rows = [...table.querySelectorAll('tr')].map(tr => [...tr.children].map(textOf).filter(Boolean).join(' - ')).filter(Boolean);
    const paragraphs = rows.map(text => {
      const p = dom.doc.createElement('p');
      p.textContent = text;
      return p;
    });
    changes.unshift({ action: 'table-flattened', slide: dom.slideOf(table), rows });
    table.replaceWith(...paragraphs);
  }
  const base = { kind: 'tables-flattened' as const, family: 'visual' as const, seed };
  return changes.length ? { ...base, html: dom.serialise(), changes } : { ...base, html, changes, notApplicable: 'the deck has no table' };
}

const COLOUR_ATTRIBUTES = ['fill', 'stroke', 'stop-color', 'color', 'bgcolor', 'flood-color', 'lighting-color'];
const IMAGE_FILTER = 'img, image, picture, canvas { filter: grayscale(100%) !important; }';

/**
 * Visual error: colour removed. Every colour in `<style>` elements, inline styles and SVG/HTML
 * colour attributes becomes the grey of the same relative luminance (so contrast stays), and
 * raster images are shown in greyscale.
 */
export function removeColour(html: string, seed: number): InjectedDeck {
  const dom = parseDeck(html);
  const changes: DeckChange[] = [];
  const note = (slide: number, element: string, where: string) => (before: string, after: string) => {
    changes.push({ action: 'colour-greyed', slide, element, where, before, after });
  };
  for (const style of [...dom.doc.querySelectorAll('style')]) {
    const slide = dom.slideOf(style);
    style.textContent = greyDeclarations(style.textContent ?? '', note(slide, 'style', 'style element'));
  }
  for (const el of [...dom.doc.querySelectorAll('[style]')]) {
    // An inline style has no selectors, so every colour in it is a value.
    el.setAttribute('style', greyCss(el.getAttribute('style') ?? '', note(dom.slideOf(el), el.nodeName.toLowerCase(), 'style attribute')));
  }
  for (const attr of COLOUR_ATTRIBUTES) {
    for (const el of [...dom.doc.querySelectorAll(`[${attr}]`)]) {
      el.setAttribute(attr, greyCss(el.getAttribute(attr) ?? '', note(dom.slideOf(el), el.nodeName.toLowerCase(), `${attr} attribute`)));
    }
  }
  const hasImages = dom.slides.some(s => s.querySelectorAll('img, image, picture, canvas').length > 0);
  if (hasImages) {
    const style = dom.doc.createElement('style');
    style.textContent = IMAGE_FILTER;
    dom.doc.head.append(style);
    changes.push({ action: 'colour-greyed', slide: -1, element: 'style', where: 'images', before: '', after: 'grayscale(100%)' });
  }
  const base = { kind: 'colour-removed' as const, family: 'visual' as const, seed };
  return changes.length ? { ...base, html: dom.serialise(), changes } : { ...base, html, changes, notApplicable: 'the deck has no colour to remove' };
}
