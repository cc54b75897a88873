import type { Page } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../cli/testing/run-cli.js';
import { scenarioReport } from '../scenarios/index.js';
import { axeViolations, MAX_DIFF_SHARE, screenshotDiff } from './testing/page-checks.js';
import { problems, SECRET_KEY, slowReply, startHarness, type Harness } from './testing/harness.js';

// Every second answer is right; the others are hostile markup that must be shown, never run.
const XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><svg onload="window.__xss=3"></svg>';
const answers = (i: number) => (i % 2 === 0 ? 'himself' : `${XSS} himself?`);

let H: Harness;
let openGate!: () => void;
const gate = new Promise<void>(resolve => { openGate = resolve; });
beforeAll(async () => { H = await startHarness(slowReply(answers, 100, gate)); }, 120_000);
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
    // Stop only once a request waits at the gate: stopped while the first (ungated) one was in
    // flight, the run would drain and end at once, and the page would reload past its note.
    await expect.poll(() => H.model.requests.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    // While it runs, the results and trials say they are as stored when the page opened.
    expect(await page.locator('p.as-of').count()).toBe(2);
    await page.getByRole('button', { name: 'Stop (drain)' }).click();
    await page.getByText('stop asked: no new call starts').waitFor();
    // This tab says it is stopping, as a tab opened now would, and offers to let the calls in flight go.
    expect(await page.locator('#live-counts').textContent()).toContain('stopping: calls in flight finish');
    expect(await page.getByRole('button', { name: 'Stop now (abandon the calls in flight)' }).isVisible()).toBe(true);
    openGate();
    await page.getByRole('button', { name: 'Resume run' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#run-status').textContent()).toBe('stopped');
    expect(await page.locator('p.as-of').count()).toBe(0);
    // Stopped on request, not a dead process: the page does not say "interrupted".
    expect(await page.locator('#run-status').locator('xpath=..').textContent()).toBe('stopped (on request, by Stop or Ctrl-C; resume it to go on)');
    await page.getByRole('button', { name: 'Resume run' }).click();
    await page.getByRole('heading', { name: 'Live progress' }).waitFor();
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 30_000 }).toBe('completed');

    // Results with intervals and n; trials filtered in the URL.
    const results = page.locator('table.results');
    await expect.poll(() => results.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    const gold = results.locator('tr', { hasText: 'gold' });
    expect(await gold.locator('td').nth(2).textContent()).toBe('1.000');
    expect(await gold.locator('td').nth(4).textContent()).toBe('4');
    // The static bundle: one HTML file with no script, the payload as text, the key nowhere.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Static bundle/ }).click()]);
    const bundleFile = join(H.dir, 'bundle.html');
    await download.saveAs(bundleFile);
    const bundle = readFileSync(bundleFile, 'utf8');
    expect(bundle).not.toMatch(/<script/i);
    expect(bundle).toContain('&lt;script&gt;window.__xss=2&lt;/script&gt;');
    expect(bundle).not.toContain(SECRET_KEY);
    const offline = await H.page();
    await offline.goto(`file://${bundleFile}`);
    expect(await offline.locator('section[id^="t-"]').count()).toBe(8);
    expect(await offline.locator('table').first().locator('tbody tr').count()).toBe(2);
    expect(await offline.evaluate('window.__xss')).toBeUndefined();
    await offline.context().close();
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
    // Keyboard: on a freshly opened page the first Tab reaches the skip link, which moves focus to the content.
    const keys = await H.page();
    await keys.goto(`${H.server.url}/runs`);
    await keys.locator('table.runs').waitFor();
    // The filters are part of the drawn page too: wait for them before walking the tab order.
    await keys.locator('[name="kind"]').waitFor();
    await keys.keyboard.press('Tab');
    expect(await keys.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    // Following it moves within the page: the page is not fetched and drawn again (that took the focus).
    let fetched = 0;
    keys.on('request', r => { if (new URL(r.url()).pathname === '/api/runs') fetched++; });
    await keys.keyboard.press('Enter');
    await keys.waitForTimeout(300);
    expect(fetched).toBe(0);
    expect(await keys.evaluate('document.activeElement.id')).toBe('main');
    await keys.keyboard.press('Tab');
    expect(await keys.evaluate('document.activeElement.getAttribute("name")')).toBe('kind');
    await keys.context().close();
    await page.context().close();
  });

  it('edits a scenario with the errors of scenario validate as you type, runs it, and an expert scores it blind from a share link', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/editor`);
    await page.getByRole('link', { name: 'knowledge-explanation.yaml' }).click();
    await page.getByText('ok: knowledge-explanation.yaml is a valid scenario').waitFor();
    expect(await page.locator('figure.flow figcaption').textContent()).toBe('Directions: START → teacher; teacher → END');
    const editor = page.getByLabel('YAML');
    const good = await editor.inputValue();
    const broken = good.replace('  - teacher -> END', '  - teacher -> ENDD').replace('recursion_limit: 2', 'recursion_limit: many');
    await editor.fill(broken);
    await page.locator('#problems li').first().waitFor();
    const shown = await page.locator('#problems li').allTextContents();
    // The same lines `paideia scenario validate` prints for the same text in the same file.
    const file = join(H.dir, 'scenarios/knowledge-explanation.yaml');
    writeFileSync(file, broken);
    const cli = await startCli(['scenario', 'validate', file], { cwd: H.dir }).done;
    writeFileSync(file, good);
    expect(cli.code).toBe(2);
    expect(shown.length).toBeGreaterThanOrEqual(1);
    for (const line of shown) expect(cli.stderr).toContain(line);
    await page.locator('#problems li button').first().click();
    await checkPage(page, 'editor');
    await editor.fill(good);
    await page.getByText('ok: knowledge-explanation.yaml is a valid scenario').waitFor();
    await page.getByRole('button', { name: 'Save and run' }).click();
    await page.waitForURL(/\/runs\/scn-/);
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 30_000 }).toBe('completed');
    const runId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);

    await page.getByRole('textbox', { name: 'Expert' }).fill('anna.k');
    await page.getByRole('button', { name: 'Create share link' }).click();
    const link = (await page.locator('#share-link').getAttribute('href'))!;
    await page.context().close();

    // The expert has only the link: a fresh browser, no cookie, no other page.
    const expert = await H.page();
    await expert.goto(link);
    await expert.getByRole('heading', { name: 'Blind scoring' }).waitFor();
    const models = (await H.store.getRun(runId))!.config.models.map(m => m.spec);
    const text = (await expert.locator('main').textContent())!;
    for (const spec of models) expect(text).not.toContain(spec);
    const outputs = await expert.locator('form.blind').count();
    expect(outputs).toBeGreaterThanOrEqual(2);
    // The order is each task's own random one: the outputs' text is masked at a fixed height for the layout check.
    await expert.addStyleTag({ content: 'article pre { height: 60px; overflow: hidden; }' });
    await expert.evaluate("document.querySelectorAll('article pre').forEach(p => p.classList.add('mask'))");
    await checkPage(expert, 'score');
    for (let i = 0; i < outputs; i++) {
      const form = expert.locator('form.blind').nth(i);
      for (const input of await form.locator('input[type=number]').all()) await input.fill(String(1 + ((i + 2) % 5)));
      for (const select of await form.locator('select').all()) await select.selectOption('1');
      await form.getByRole('button', { name: /^Save output/ }).click();
      await form.getByText('saved').waitFor();
    }
    expect(await expert.locator('#scored-count').textContent()).toBe(`${outputs} of ${outputs} scored`);
    await expert.context().close();

    // The scores are the expert's, in the store, and the agreement analysis reads them.
    const human = (await H.store.listScores(runId)).filter(s => s.scorer.name === 'human:anna.k');
    expect(human).toHaveLength(outputs);
    const report = await scenarioReport(H.store, runId);
    expect(report.human?.raters).toEqual([{ rater: 'anna.k', outputs }]);
  });
});
