import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';

const BASELINES = resolve(import.meta.dirname, '../__screenshots__');
/** Share of pixels that may differ from the baseline (text of run ids, costs and times varies). */
export const MAX_DIFF_SHARE = 0.03;

/**
 * axe-core's WCAG 2 A and AA rules (labels, contrast, keyboard names, landmarks) on the page as
 * it stands; returns the violations as `rule: target` lines. Injected by the test driver, so the
 * page's CSP (no inline script) is not loosened for it.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  // Browser-side code is given as text: this file is compiled without the DOM's types.
  return page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } })
    .then(r => r.violations.map(v => v.id + ': ' + v.nodes.map(n => JSON.stringify(n.target)).join(' ')))`) as Promise<string[]>;
}

/**
 * Compare a screenshot of the page with its committed baseline (src/web/__screenshots__), pixel
 * by pixel in the browser's own canvas with a per-channel tolerance; returns the share of pixels
 * that differ. Parts that change from run to run (ids, times) are masked. A missing baseline is
 * written when UPDATE_WEB_SCREENSHOTS=1 and is an error otherwise.
 */
export async function screenshotDiff(browser: Browser, page: Page, name: string): Promise<number> {
  const shot = await page.screenshot({ fullPage: false, animations: 'disabled', caret: 'hide', mask: [page.locator('code, time, .mask')], maskColor: '#808080' });
  const file = join(BASELINES, `${name}.png`);
  if (!existsSync(file) || process.env['UPDATE_WEB_SCREENSHOTS'] === '1') {
    if (process.env['UPDATE_WEB_SCREENSHOTS'] !== '1') throw new Error(`no baseline ${file}; make it with UPDATE_WEB_SCREENSHOTS=1 npx vitest run src/web`);
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(file, shot);
    return 0;
  }
  const context = await browser.newContext();
  try {
    const scratch = await context.newPage();
    return await scratch.evaluate(`(${PIXEL_DIFF})(${JSON.stringify(readFileSync(file).toString('base64'))}, ${JSON.stringify(shot.toString('base64'))})`) as number;
  } finally {
    await context.close();
  }
}

/** Runs in the browser: the share of pixels of two PNGs (base64) that differ by more than 40 in a channel. */
const PIXEL_DIFF = `async (a, b) => {
      const load = async b64 => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width; canvas.height = img.height;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, img.width, img.height);
      };
      const [x, y] = [await load(a), await load(b)];
      if (x.width !== y.width || x.height !== y.height) return 1;
      let differ = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        if (Math.abs(x.data[i] - y.data[i]) > 40 || Math.abs(x.data[i + 1] - y.data[i + 1]) > 40 || Math.abs(x.data[i + 2] - y.data[i + 2]) > 40) differ += 1;
      }
      return differ / (x.width * x.height);
    }`;
