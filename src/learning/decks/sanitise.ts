import createDOMPurify from 'dompurify';
import type { MiniDocument } from 'jsdom';
import { parseHtml } from './dom.js';
import { DECK_LIMITS } from '../units/outline.js';
import { stripExternalCss, isInlineReference } from './css-references.js';

/** One thing the sanitiser took out of a deck, kept so a reader can see what the generator tried. */
export interface SanitisationEntry {
  kind: 'script' | 'event-handler' | 'external-reference' | 'element' | 'attribute';
  /** Tag of the element, e.g. `img`, or `style` for CSS. */
  element: string;
  /** The attribute, URL or CSS reference removed, when there is one. */
  detail?: string;
}

/** Why a generator answer is not a deck: stored as a failed generation, never rendered. */
export type DeckRejection = 'not-html' | 'no-slides' | 'too-many-slides' | 'too-large';

export type SanitisedDeck =
  | { ok: true; html: string; slides: number; report: SanitisationEntry[] }
  | { ok: false; reason: DeckRejection; message: string };

const REFERENCE_ATTRS = ['src', 'href', 'srcset', 'poster', 'xlink:href', 'data', 'background'];

/** Make a generator's HTML safe to store and render: no scripts, handlers or external references. */
export function sanitiseDeck(raw: string): SanitisedDeck {
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > DECK_LIMITS.maxBytes) return reject('too-large', `the deck is ${bytes} bytes; at most ${DECK_LIMITS.maxBytes} are allowed`);
  if (!/<\s*(!doctype\s+html|html|body|section)\b/i.test(raw)) return reject('not-html', 'the answer holds no HTML document (no <html>, <body> or <section>)');
  const { window } = parseHtml(raw);
  const doc = window.document;
  const report: SanitisationEntry[] = [];
  removeExternalReferences(doc, report);
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  const clean = purify.sanitize(doc.documentElement.outerHTML, { WHOLE_DOCUMENT: true, ADD_TAGS: ['style'], FORCE_BODY: false });
  for (const removed of purify.removed as Array<{ element?: { nodeName: string; nodeType: number }; attribute?: { name: string } | null; from?: { nodeName: string } }>) {
    if (removed.attribute) {
      const name = removed.attribute.name;
      report.push({ kind: /^on/i.test(name) ? 'event-handler' : 'attribute', element: removed.from?.nodeName.toLowerCase() ?? '?', detail: name });
    } else if (removed.element && removed.element.nodeType === 1) {
      const tag = removed.element.nodeName.toLowerCase();
      report.push({ kind: tag === 'script' ? 'script' : 'element', element: tag });
    }
  }
  const slides = parseHtml(clean).window.document.querySelectorAll('section.slide').length;
  if (slides === 0) return reject('no-slides', 'the deck has no <section class="slide">');
  if (slides > DECK_LIMITS.maxSlides) return reject('too-many-slides', `the deck has ${slides} slides; at most ${DECK_LIMITS.maxSlides} are allowed`);
  return { ok: true, html: `<!DOCTYPE html>\n${clean}`, slides, report };
}

function reject(reason: DeckRejection, message: string): SanitisedDeck {
  return { ok: false, reason, message };
}

/** Elements that would load something from outside go; so do such attributes and CSS url()s. */
function removeExternalReferences(doc: MiniDocument, report: SanitisationEntry[]): void {
  for (const el of [...doc.querySelectorAll('*')]) {
    const tag = el.nodeName.toLowerCase();
    for (const attr of REFERENCE_ATTRS) {
      const value = el.getAttribute(attr);
      if (value === null || (tag === 'a' && attr === 'href') || isInlineReference(value, attr === 'srcset')) continue;
      report.push({ kind: 'external-reference', element: tag, detail: value });
      if (tag === 'img' || tag === 'link' || tag === 'source' || tag === 'image' || tag === 'use' || tag === 'iframe') {
        el.remove();
        break;
      }
      el.removeAttribute(attr);
    }
    const style = el.getAttribute('style');
    if (style !== null) el.setAttribute('style', stripExternalCss(style, removed => report.push({ kind: 'external-reference', element: tag, detail: removed })));
    if (tag === 'style') el.textContent = stripExternalCss(el.textContent ?? '', removed => report.push({ kind: 'external-reference', element: 'style', detail: removed }));
  }
}
