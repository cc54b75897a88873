import { parseHtml } from '../decks/dom.js';

// Elements after which a reader sees a break, so "<li>a</li><li>b</li>" reads "a" and "b", not "ab".
const BREAKS = 'p, li, h1, h2, h3, h4, h5, h6, tr, div, br, table, ul, ol, pre, blockquote, figcaption';
const CELLS = 'td, th';

/** The text of each `<section class="slide">` of a sanitised deck, one line per block, for text-only readers. */
export function slideTexts(html: string): string[] {
  const doc = parseHtml(html).window.document;
  return [...doc.querySelectorAll('section.slide')].map(slide => {
    for (const el of [...slide.querySelectorAll(CELLS)]) el.append(' | ');
    for (const el of [...slide.querySelectorAll(BREAKS)]) el.append('\n');
    for (const el of [...slide.querySelectorAll('style, script, template')]) el.remove();
    return (slide.textContent ?? '').split('\n').map(l => l.replace(/\s+/g, ' ').replace(/(?:\s*\|\s*)+$/, '').trim()).filter(Boolean).join('\n');
  });
}
