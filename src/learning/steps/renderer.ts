import type { Browser } from 'playwright-core';
import { launchBrowser } from '../decks/browser.js';
import { measureDeck } from '../decks/metrics.js';
import { renderSlides } from '../decks/render.js';
import type { DeckRenderer } from './deck-record.js';

/**
 * The run's one Chromium, started when the first deck needs it and closed with the run. Signals
 * are the run's to handle (a Ctrl-C drains it, then the run closes the browser).
 */
export function chromiumRenderer(): DeckRenderer & { close(): Promise<void> } {
  let browser: Promise<Browser> | undefined;
  const open = () => (browser ??= launchBrowser({ ownSignals: false }));
  return {
    render: async (html, deck) => renderSlides(await open(), html, deck),
    measure: async (html, outline) => measureDeck(await open(), html, outline),
    async close() {
      if (browser) await (await browser.catch(() => undefined))?.close();
      browser = undefined;
    },
  };
}
