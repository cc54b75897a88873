import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from '../runs.js';
import { axeViolations, MAX_DIFF_SHARE, screenshotDiff } from './testing/page-checks.js';
import { problems, SECRET_KEY, slowReply, startHarness, type Harness } from './testing/harness.js';

let H: Harness;
let kept: string;
let doomed: string;
beforeAll(async () => {
  H = await startHarness(slowReply(() => 'himself', 0));
  const suite = (model: string) => startRun({ kind: 'suite', suites: [join(H.dir, 'suites/mini')], models: [model], repeats: 1 }, { store: H.store }).done;
  kept = (await suite('baseline:gold')).runId;
  doomed = (await suite('baseline:copy')).runId;
}, 120_000);
afterAll(async () => { await H?.close(); });

async function checkPage(page: Page, name: string): Promise<void> {
  expect(problems).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  expect(await page.content()).not.toContain(SECRET_KEY);
  expect(await screenshotDiff(H.browser, page, name)).toBeLessThanOrEqual(MAX_DIFF_SHARE);
}

const rows = (page: Page) => page.locator('table.runs tbody tr');

describe('deleting a run from the runs page', () => {
  it('asks in a modal dialog reached and answered by keyboard; Escape keeps the run, Delete run removes it from the list and the store', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs`);
    await expect.poll(() => rows(page).count()).toBe(2);
    // Keyboard only: focus the row's Delete button, open the dialog with Enter.
    await page.getByRole('button', { name: `delete run ${doomed}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete this run?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`${doomed} (suite, completed; baseline:copy) and everything stored with it: 4 trials`);
    // Cancel holds the focus, so a stray Enter deletes nothing.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await checkPage(page, 'runs-delete');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await rows(page).count()).toBe(2);
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe(`delete run ${doomed}`);

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Delete run');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText(`Deleted run ${doomed}: 4 trials, 4 calls, 4 scores, 0 judgments`).waitFor();
    expect(await rows(page).count()).toBe(1);
    expect(await page.locator('table.runs caption').textContent()).toBe('1 of 1 runs, newest first');
    expect(await rows(page).first().textContent()).toContain('baseline:gold');
    expect(await H.store.getRun(doomed)).toBeUndefined();
    expect((await H.store.listRuns()).map(r => r.id)).toEqual([kept]);
    expect(problems).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    // Its deep link now says it is gone.
    await page.goto(`${H.server.url}/runs/${doomed}`);
    await page.getByRole('alert').getByText(`no run "${doomed}" in this store`).waitFor();
    expect(problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);
  }, 120_000);

  it('shows a bad launch config\'s problems beside the field the page drew, in its words, never a CLI flag', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/launch`);
    await page.getByRole('checkbox', { name: /mini/ }).check();
    await page.getByLabel('Repeats').fill('1');
    await page.getByRole('button', { name: 'Start run' }).click();
    const models = page.getByLabel('Models (one per line)');
    await expect.poll(() => models.getAttribute('aria-invalid')).toBe('true');
    const described = await models.getAttribute('aria-describedby');
    expect(await page.locator(`#${described}`).textContent()).toBe('name at least one model, e.g. baseline:gold openai:gpt-4.1-mini');
    const listed = page.getByRole('alert').getByRole('button', { name: /^Models \(one per line\): name at least one model/ });
    await listed.click();
    expect(await page.evaluate('document.activeElement.id')).toBe('f-models');
    expect(await page.locator('main').textContent()).not.toMatch(/--model/);
    // The browser logs the API's 400 itself; it is the answer this test asked for, nothing else.
    expect(problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await checkPage(page, 'launch-problems');

    // Fixed, the problem goes and the run starts.
    await models.fill('baseline:gold');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/run-[0-9a-f]+$/);
  }, 120_000);
});
