import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeckRenderError, launchBrowser } from './browser.js';
import { renderSlides } from './render.js';
import { sanitiseDeck } from './sanitise.js';

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

let browser: Browser;
let server: Server;
let hits = 0;
beforeAll(async () => {
  browser = await launchBrowser();
  server = createServer((_req, res) => { hits++; res.end('x'); });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await browser.close();
  await new Promise(resolve => server.close(resolve));
});

describe('renderSlides', () => {
  it('gives one 1280x720 PNG per slide, byte-identical on a second render', async () => {
    const deck = sanitiseDeck(readFileSync(new URL('./__fixtures__/counted.html', import.meta.url), 'utf8'));
    if (!deck.ok) throw new Error(deck.message);
    const first = await renderSlides(browser, deck.html, 'counted.html');
    const second = await renderSlides(browser, deck.html, 'counted.html');
    expect(first.map(pngSize)).toEqual(Array(3).fill({ width: 1280, height: 720 }));
    expect(second.map(b => b.toString('base64'))).toEqual(first.map(b => b.toString('base64')));
    // Different slides differ: the PNGs are really the slides, not one blank frame.
    expect(new Set(first.map(b => b.toString('base64'))).size).toBe(3);
  });

  it('refuses every request leaving the document, even from unsanitised HTML', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const html = `<!DOCTYPE html><html><head><link rel="stylesheet" href="${url}/a.css"></head><body>
      <section class="slide" style="background:url(${url}/bg.png)"><img src="${url}/i.png"><script>fetch("${url}/js")</script></section></body></html>`;
    const [png] = await renderSlides(browser, html, 'raw.html');
    expect(pngSize(png!)).toEqual({ width: 1280, height: 720 });
    expect(hits).toBe(0);
  });

  it('names the deck and the slide when rendering fails', async () => {
    await expect(renderSlides(browser, '<!DOCTYPE html><p>none</p>', 'empty.html')).rejects.toThrow('deck empty.html: no <section class="slide"> to render');
    const hidden = '<!DOCTYPE html><section class="slide">1</section><section class="slide" style="display:none">2</section>';
    const error = await renderSlides(browser, hidden, 'hidden.html').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeckRenderError);
    expect((error as DeckRenderError).message).toBe('deck hidden.html, slide 2: the slide is not displayed (display: none, or no size); remove it or make it visible');
  });
});
