import type { Browser } from 'playwright-core';
import { DeckRenderError, openDeckPage } from './browser.js';

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
    const slides = page.locator('section.slide');
    const count = await slides.count();
    if (count === 0) throw new DeckRenderError(deck, undefined, 'no <section class="slide"> to render');
    const out: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      if (!(await slides.nth(i).isVisible())) throw new DeckRenderError(deck, i + 1, 'the slide is not displayed (display: none, or no size); remove it or make it visible');
      try {
        out.push(await slides.nth(i).screenshot({ animations: 'disabled', caret: 'hide', scale: 'css', type: 'png', timeout: 15_000 }));
      } catch (cause) {
        throw new DeckRenderError(deck, i + 1, `screenshot failed: ${(cause as Error).message.split('\n')[0]}`, { cause });
      }
    }
    return out;
  } finally {
    await context.close();
  }
}
