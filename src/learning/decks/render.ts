import type { Browser } from 'playwright-core';
import { DeckRenderError, openDeckPage } from './browser.js';

interface SlideBox { x: number; y: number; width: number; height: number; displayed: boolean }

// Boxes in document coordinates, read in one round trip rather than one per slide.
const SLIDE_BOXES = String.raw`[...document.querySelectorAll('section.slide')].map(s => {
  const r = s.getBoundingClientRect();
  return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, displayed: r.width > 0 && r.height > 0 };
})`;

/** Render every `<section class="slide">` of a sanitised deck to a 1280x720 PNG, in document order. */
export async function renderSlides(browser: Browser, html: string, deck: string): Promise<Buffer[]> {
  let opened;
  try {
    opened = await openDeckPage(browser, html);
  } catch (cause) {
    throw new DeckRenderError(deck, undefined, `cannot load the deck: ${(cause as Error).message}`, { cause });
  }
  const { page, context } = opened;
  try {
    const boxes = await page.evaluate(SLIDE_BOXES) as SlideBox[];
    if (boxes.length === 0) throw new DeckRenderError(deck, undefined, 'no <section class="slide"> to render');
    const out: Buffer[] = [];
    for (const [i, box] of boxes.entries()) {
      if (!box.displayed) throw new DeckRenderError(deck, i + 1, 'the slide is not displayed (display: none, or no size); remove it or make it visible');
      try {
        // A clip of the full page: no scrolling, and the pinned slide size makes every PNG 1280x720.
        out.push(await page.screenshot({ clip: { x: box.x, y: box.y, width: box.width, height: box.height }, fullPage: true, type: 'png', timeout: 15_000 }));
      } catch (cause) {
        throw new DeckRenderError(deck, i + 1, `screenshot failed: ${(cause as Error).message.split('\n')[0]}`, { cause });
      }
    }
    return out;
  } finally {
    await context.close();
  }
}
