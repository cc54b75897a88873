import type { MiniElement } from 'jsdom';
import { createRng } from '../../stats/index.js';
import type { Unit } from '../units/index.js';
import { parseDeck, textBlocks, textOf, tokenPattern } from './deck-dom.js';
import type { DeckChange, InjectedDeck } from './types.js';

/**
 * Pedagogy error: the worked examples taken out. A table row showing one of the unit's example
 * forms goes, as does any other text block showing a form together with its translation (a rule
 * that only names forms stays); a table left with no data row goes whole. Headings stay.
 */
export function removeExamples(html: string, unit: Pick<Unit, 'examples'>, seed: number): InjectedDeck {
  const dom = parseDeck(html);
  const pattern = tokenPattern(unit.examples.map(e => e.source));
  const shows = (el: MiniElement) => { pattern.lastIndex = 0; return pattern.test(textOf(el)); };
  const bare = (t: string) => t.toLowerCase().replace(/[.!?]+$/, '').trim();
  const showsPair = (el: MiniElement) => {
    const text = textOf(el);
    const lower = text.toLowerCase();
    return unit.examples.some(e => tokenPattern([e.source]).test(text) && lower.includes(bare(e.target)));
  };
  const changes: DeckChange[] = [];
  const remove = (el: MiniElement) => {
    changes.push({ action: 'element-removed', slide: dom.slideOf(el), element: el.nodeName.toLowerCase(), text: textOf(el) });
    el.remove();
  };
  for (const row of dom.slides.flatMap(s => [...s.querySelectorAll('tr')])) if (shows(row)) remove(row);
  for (const table of dom.slides.flatMap(s => [...s.querySelectorAll('table')])) {
    if (![...table.querySelectorAll('td')].length) remove(table);
  }
  for (const block of textBlocks(dom)) {
    if (block.closest('table') || /^h[1-6]$/i.test(block.nodeName) || !block.parentElement) continue;
    if (showsPair(block)) remove(block);
  }
  const base = { kind: 'examples-removed' as const, family: 'pedagogy' as const, seed };
  return changes.length ? { ...base, html: dom.serialise(), changes } : { ...base, html, changes, notApplicable: 'the deck shows none of the unit\'s example forms' };
}

/**
 * Pedagogy error: the slides in a seeded random order, the title slide kept first. A draw that
 * leaves the order as it was is rotated by one, so a deck of three or more slides always changes.
 */
export function scrambleSlides(html: string, seed: number): InjectedDeck {
  const dom = parseDeck(html);
  const base = { kind: 'order-scrambled' as const, family: 'pedagogy' as const, seed };
  const n = dom.slides.length;
  if (n < 3) return { ...base, html, changes: [], notApplicable: `the deck has ${n} slide(s); with the title kept first, at least 3 are needed to reorder` };
  const rest = createRng(seed).shuffle(Array.from({ length: n - 1 }, (_, i) => i + 1));
  if (rest.every((v, i) => v === i + 1)) rest.push(rest.shift()!);
  const order = [0, ...rest];
  // Each slide's place is held by a marker, then filled by the slide drawn for it: slides need not be siblings.
  const places = dom.slides.map(slide => {
    const marker = dom.doc.createElement('i');
    slide.replaceWith(marker);
    return marker;
  });
  places.forEach((marker, k) => marker.replaceWith(dom.slides[order[k]!]!));
  return { ...base, html: dom.serialise(), changes: [{ action: 'slides-reordered', order }] };
}
