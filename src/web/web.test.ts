import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, MAX_DIFF_SHARE, screenshotDiff } from './testing/page-checks.js';
import { problems, SECRET_KEY, slowReply, startHarness, type Harness } from './testing/harness.js';

// Every second answer is right; the others are hostile markup that must be shown, never run.
const XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><svg onload="window.__xss=3"></svg>';
const answers = (i: number) => (i % 2 === 0 ? 'himself' : `${XSS} himself?`);

let H: Harness;
beforeAll(async () => { H = await startHarness(slowReply(answers, 150)); }, 120_000);
afterAll(async () => { await H?.close(); });

/** What every page must pass: no script error, no violation of WCAG A/AA, no key, its layout as committed. */
async function checkPage(page: Page, name: string): Promise<void> {
  expect(problems).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  expect(await page.content()).not.toContain(SECRET_KEY);
  expect(await page.evaluate('window.__xss')).toBeUndefined();
  expect(await screenshotDiff(H.browser, page, name)).toBeLessThanOrEqual(MAX_DIFF_SHARE);
}

describe('paideia serve in Chromium', () => {
  it('launch -> live progress -> stop -> resume -> results -> trial -> raw call, with hostile model output kept inert', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/launch`);
    await page.getByRole('checkbox', { name: /mini/ }).check();
    await page.getByLabel('Models (one per line)').fill('openai:fake-model\nbaseline:gold');
    await page.getByLabel('Repeats').fill('1');
    await page.getByLabel('Concurrency').fill('1');
    await checkPage(page, 'launch');
    await page.getByRole('button', { name: 'Start run' }).click();

    // Live: the run page follows the engine's events; stop drains it, resume finishes it.
    await page.waitForURL(/\/runs\/run-[0-9a-f]+$/);
    await expect.poll(() => page.locator('#live-counts').textContent(), { timeout: 20_000 }).toMatch(/^[1-9]\d* of 8 trials/);
    await page.getByRole('button', { name: 'Stop (drain)' }).click();
    await page.getByRole('button', { name: 'Resume run' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#run-status').textContent()).toBe('stopped');
    await page.getByRole('button', { name: 'Resume run' }).click();
    await page.getByRole('heading', { name: 'Live progress' }).waitFor();
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 30_000 }).toBe('completed');

    // Results with intervals and n; trials filtered in the URL.
    const results = page.locator('table.results');
    await expect.poll(() => results.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    const gold = results.locator('tr', { hasText: 'gold' });
    expect(await gold.locator('td').nth(2).textContent()).toBe('1.000');
    expect(await gold.locator('td').nth(4).textContent()).toBe('4');
    await page.evaluate("document.querySelectorAll('section.live').forEach(s => s.classList.add('mask'))");
    await checkPage(page, 'run');
    await page.getByLabel('Show').selectOption('failures');
    await page.waitForURL(/show=failures/);
    await expect.poll(() => page.locator('table.trials tbody tr').count()).toBe(2);
    const failingOutput = await page.locator('table.trials tbody tr td.text').nth(1).textContent();
    expect(failingOutput).toContain('<script>window.__xss=2</script>');
    await page.getByLabel('Inputs or outputs match').fill('onerror=.*himself\\?');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/q=onerror/);
    await expect.poll(() => page.locator('table.trials caption').textContent()).toBe('Trials 1–2 of 2');
    await page.goto(`${page.url().split('?')[0]}?show=differences&model=${encodeURIComponent("openai:fake-model")}`);
    await expect.poll(() => page.locator('table.trials caption').textContent()).toBe('Trials 1–2 of 2');

    // One trial down to its raw call: the payload is text, the key is nowhere.
    await page.locator('table.trials tbody a').first().click();
    await page.waitForURL(/\/trials\//);
    await page.getByText('Raw response').click();
    const raw = await page.locator('pre.raw').nth(1).textContent();
    expect(raw).toContain('chatcmpl-fake');
    expect(raw).toContain('window.__xss=2');
    expect(await page.locator('.answer pre').textContent()).toBe(`${XSS} himself?`);
    expect(await page.locator('img, script:not([src]), svg[onload]').count()).toBe(0);
    await checkPage(page, 'trial');

    await page.getByRole('link', { name: 'Runs' }).click();
    await page.waitForURL(/\/runs$/);
    await expect.poll(() => page.locator('table.runs tbody tr').count()).toBe(1);
    await checkPage(page, 'runs');
    await page.context().close();
  });
});
