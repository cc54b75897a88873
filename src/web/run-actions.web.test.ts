import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from '../runs.js';
import { analyze, tableFromRun } from '../validity/index.js';
import { makeChartRuns, type ChartRuns } from './testing/chart-runs.js';
import { problems, SECRET_KEY, slowReply, startHarness, type Harness } from './testing/harness.js';
import { axeViolations, MAX_DIFF_SHARE, screenshotDiff } from './testing/page-checks.js';

// A suite run a worker holds (a live claim, its lease fixed far ahead so the page's words are the
// same every time), and the chart runs for a rating study whose validity files the page keeps.
const LEASE_UNTIL = Date.parse('2099-01-01T12:00:00Z');
let H: Harness;
let R: ChartRuns;
let held: string;
beforeAll(async () => {
  H = await startHarness(slowReply(() => 'himself', 0));
  R = await makeChartRuns(H.store, H.dir, { OPENAI_API_KEY: SECRET_KEY, OPENAI_BASE_URL: H.model.baseURL });
  held = (await startRun({ kind: 'suite', suites: [join(H.dir, 'suites/mini')], models: ['baseline:gold'], repeats: 1 }, { store: H.store }).done).runId;
  const [trial] = await H.store.listTrials(held);
  await H.store.claimTrials(held, { workerId: 'w9', pid: 42, host: 'lab-host' }, [trial!.id], LEASE_UNTIL);
}, 300_000);
afterAll(async () => { await R?.close(); await H?.close(); });

const cells = (table: Locator) => table.locator('tbody tr').evaluateAll(rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent ?? '')));

describe('deleting a run workers hold, from the runs page', () => {
  it('says who holds it until when and offers Delete anyway, which deletes it with its claim still live', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs`);
    await page.getByRole('button', { name: `delete run ${held}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this run?' });
    await dialog.getByRole('button', { name: 'Delete run' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText(/Workers hold this run/).waitFor();
    expect(await alert.textContent()).toBe('Workers hold this run: worker w9 (pid 42 on lab-host) holds 1 trial until 2099-01-01 12:00:00 UTC. '
      + 'Stop them (or wait until then) and delete it, or delete it anyway: its workers can then store nothing more.');
    expect(await dialog.getByRole('button', { name: 'Delete run' }).count()).toBe(0);
    // The safe choice keeps the focus; the forced delete is one Tab away.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    expect(await H.store.getRun(held)).toBeDefined();
    // The browser logs the 409 itself: the answer this test asked for.
    expect(problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
    expect(await axeViolations(page)).toEqual([]);
    expect(await screenshotDiff(H.browser, page, 'runs-delete-in-use')).toBeLessThanOrEqual(MAX_DIFF_SHARE);

    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Delete anyway');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText(`Deleted run ${held}: 4 trials, 4 calls, 4 scores`).waitFor();
    expect(await H.store.getRun(held)).toBeUndefined();
    expect(await page.getByRole('button', { name: `delete run ${held}` }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);
});

describe('the validity files chosen on a run\'s Results page', () => {
  it('are chosen again on each visit in the same tab (sessionStorage), sent only to the charts API, and forgotten on request', async () => {
    const page = await H.page();
    const sent: Array<{ url: string; body: string }> = [];
    page.on('request', r => sent.push({ url: r.url(), body: r.postData() ?? '' }));
    const study = `${H.server.url}/runs/${R.study}`;
    await page.goto(study);
    await page.locator('table.tau-table').first().waitFor();
    for (const [key, label] of [['experts', 'Experts'], ['outcomes', 'Outcomes'], ['observations', 'Observations']] as const) {
      await page.getByLabel(new RegExp(`^${label} \\(`)).setInputFiles({ name: `${key}.csv`, mimeType: 'text/csv', buffer: readFileSync(R.files[key]) });
    }
    await page.getByRole('button', { name: 'Analyse with these files' }).click();
    const report = analyze(await tableFromRun(H.store, R.study, R.files), { shareResamples: 100 });
    const f = (v: number) => v.toFixed(3);
    const tau = (t: { tau: number; low90: number; high90: number } | null) => (t && Number.isFinite(t.tau) ? `${f(t.tau)} [${f(t.low90)}, ${f(t.high90)}]` : '–');
    const clarity = page.locator('table.tau-table', { has: page.locator('caption', { hasText: 'Item clarity:' }) });
    const expected = report.alignment.filter(a => a.item === 'clarity').map(a => [tau(a.tauExperts), tau(a.tauOutcome)]);
    expect(expected.filter(r => r[1] !== '–').length).toBeGreaterThanOrEqual(5);
    const taus = async () => (await cells(clarity)).filter(r => r[1] === 'rater × prompt').map(r => [r[3], r[5]]);
    await expect.poll(taus).toEqual(expected);
    const kept = page.getByText(/^Analysed with experts\.csv, outcomes\.csv, observations\.csv; kept in this tab for this run/);
    await kept.waitFor();

    // Away and back (the app's own link, the browser's Back), then a reload: the same figure, with no file chosen again.
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    await page.locator('table.runs').waitFor();
    await page.goBack();
    await kept.waitFor();
    await expect.poll(taus).toEqual(expected);
    await page.reload();
    await kept.waitFor();
    await expect.poll(taus).toEqual(expected);
    expect(await page.locator('figure.tau').nth(1).locator('svg circle').count()).toBeGreaterThan(0);

    // The files' text went to the charts API of this run and nowhere else; another run's page does not use them.
    const expertsText = readFileSync(R.files.experts, 'utf8').split('\n')[1]!;
    const carrying = sent.filter(s => s.body.includes(expertsText));
    expect(carrying.length).toBe(3);
    expect(new Set(carrying.map(s => new URL(s.url).pathname))).toEqual(new Set([`/api/runs/${R.study}/charts/alignment`]));
    await page.goto(`${H.server.url}/runs/${R.duo}`);
    await page.locator('table.tau-table').first().waitFor();
    expect(await page.getByText(/kept in this tab for this run/).count()).toBe(0);
    expect(problems).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    // Another tab (a fresh session) starts without them; Forget drops them here too.
    const other = await H.page();
    await other.goto(study);
    await other.locator('table.tau-table').first().waitFor();
    expect(await other.getByText(/kept in this tab for this run/).count()).toBe(0);
    await other.context().close();
    await page.goto(study);
    await kept.waitFor();
    await page.getByRole('button', { name: 'Forget these files' }).click();
    await expect.poll(async () => (await cells(clarity)).every(r => r[3] === '–')).toBe(true);
    await page.reload();
    await page.locator('table.tau-table').first().waitFor();
    expect(await page.getByText(/kept in this tab for this run/).count()).toBe(0);
    expect((await cells(clarity)).every(r => r[3] === '–')).toBe(true);
    expect(await page.evaluate(`sessionStorage.getItem('paideia.validity-files.${R.study}')`)).toBe(null);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 180_000);
});
