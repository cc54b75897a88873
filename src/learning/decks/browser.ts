import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PaideiaError } from '../../core/errors.js';
import { DECK_LIMITS } from '../units/outline.js';

/** Debian's Chromium; playwright's own browser download is never used. */
export const CHROMIUM_PATH = process.env['PAIDEIA_CHROMIUM'] ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
  // Same glyph rasterisation on every run: no LCD subpixel text, no font hinting differences.
  '--disable-lcd-text', '--font-render-hinting=none', '--force-color-profile=srgb',
];

/** Rendering a deck failed; the message names the deck and, where known, the slide. */
export class DeckRenderError extends PaideiaError {
  constructor(readonly deck: string, readonly slide: number | undefined, message: string, options?: { cause?: unknown }) {
    super(`deck ${deck}${slide !== undefined ? `, slide ${slide}` : ''}: ${message}`, options);
    this.name = 'DeckRenderError';
  }
}

/**
 * Start Chromium. `ownSignals: false` is for a browser that lives inside a run: the run's own
 * Ctrl-C handling drains it and closes the browser with it, whereas playwright's default handlers
 * would close the browser and exit the process (code 130) at once, calls in flight and all.
 */
export async function launchBrowser(o: { ownSignals?: boolean } = {}): Promise<Browser> {
  const signals = o.ownSignals === false ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {};
  try {
    return await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, ...signals });
  } catch (cause) {
    throw new PaideiaError(`cannot start Chromium at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (or set PAIDEIA_CHROMIUM)`, { cause });
  }
}

// Slides are pinned to their size and every motion is stopped, so a screenshot is the same each time.
const PINNING_CSS = `
html, body { margin: 0 !important; padding: 0 !important; }
section.slide { box-sizing: border-box; position: relative; overflow: hidden !important;
  width: ${DECK_LIMITS.width}px !important; height: ${DECK_LIMITS.height}px !important; }
*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }`;

/** A page holding the sanitised deck, offline, with JavaScript off and every request refused. */
export async function openDeckPage(browser: Browser, html: string): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({
    viewport: { width: DECK_LIMITS.width, height: DECK_LIMITS.height },
    deviceScaleFactor: 1, javaScriptEnabled: false, offline: true, reducedMotion: 'reduce',
    colorScheme: 'light', locale: 'en-GB', timezoneId: 'UTC',
  });
  // The document arrives by setContent; anything it would fetch is outside it and refused.
  await context.route('**/*', route => route.abort('blockedbyclient'));
  const page = await context.newPage();
  await page.setContent(withPinningCss(html), { waitUntil: 'load' });
  // Wait for webfonts the deck declares inline (data: URLs), so text is drawn in its final font.
  await page.evaluate('document.fonts.ready.then(() => true)');
  return { page, context };
}

function withPinningCss(html: string): string {
  const style = `<style data-paideia="pin">${PINNING_CSS}</style>`;
  return /<\/head>/i.test(html) ? html.replace(/<\/head>/i, `${style}</head>`) : `${style}${html}`;
}
