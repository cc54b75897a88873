import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, waitFor } from '../cli/testing/run-cli.js';
import { commandHint } from '../core/command-hint.js';
import { startRun } from '../runs.js';
import { axeViolations } from './testing/page-checks.js';
import { problems, SECRET_KEY, slowReply, startHarness, type Harness } from './testing/harness.js';

// A short lease, as in cli/commands/runs.test.ts: a run that changed within one may still be planning.
process.env['PAIDEIA_CLAIM_TTL_MS'] = '1000';

let H: Harness;
let open!: () => void;
let killed: string;
let done: string;
beforeAll(async () => {
  // The model answers the first request and holds every other one: the CLI run below is surely mid-run when it is killed.
  const gate = new Promise<void>(resolve => (open = resolve));
  H = await startHarness(slowReply(() => 'himself', 0, gate));
  done = (await startRun({ kind: 'suite', suites: [join(H.dir, 'suites/mini')], models: ['baseline:gold'], repeats: 1 }, { store: H.store }).done).runId;
  const db = `sqlite:${join(H.dir, 'paideia.db')}`;
  const cli = startCli(['run', join(H.dir, 'suites/mini'), '-m', 'openai:tutor', '--repeats', '1', '--base-url', H.model.baseURL, '--store', db],
    { cwd: H.dir, env: { OPENAI_API_KEY: 'sk-cli', PAIDEIA_CLAIM_TTL_MS: '1000' } });
  await waitFor(() => H.model.requests.length >= 2, 'the CLI run did not get going', 60_000);
  cli.child.kill('SIGKILL');
  expect((await cli.done).signal).toBe('SIGKILL');
  killed = (await H.store.listRuns()).find(r => r.id !== done)!.id;
  expect((await H.store.getRun(killed))?.status).toBe('running');
  // Past a lease since the run last changed.
  await new Promise(resolve => setTimeout(resolve, 1500));
}, 120_000);
afterAll(async () => {
  open?.();
  await H?.close();
});

const rows = (page: Page) => page.locator('table.runs tbody tr');
const row = (page: Page, id: string) => rows(page).filter({ has: page.locator(`a[href="/runs/${id}"]`) });

describe('a run left "running" by a killed process, in the web app', () => {
  it('the runs page shows it as stopped (interrupted) with the command that resumes it, as paideia runs does; the status filter counts it as stopped', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs`);
    await expect.poll(() => rows(page).count()).toBe(2);
    // As `paideia runs` prints it (npx paideia when the server was started through npm, as here under vitest).
    const resume = commandHint(['run', '--resume', killed], H.store.url);
    expect(resume).toMatch(new RegExp(`paideia run --resume ${killed} --store sqlite:`));
    const status = row(page, killed).locator('td').nth(3);
    expect(await status.locator('.status').textContent()).toBe('stopped (interrupted)');
    expect(await status.textContent()).toContain(`no process is working on it; resume it with: ${resume}`);
    expect(await row(page, done).locator('td').nth(3).textContent()).toBe('completed');
    expect(problems).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.content()).not.toContain(SECRET_KEY);

    // Its delete dialog names it so too.
    await page.getByRole('button', { name: `delete run ${killed}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this run?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`${killed} (suite, stopped (interrupted); openai:tutor)`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${H.server.url}/runs?status=stopped`);
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await row(page, killed).count()).toBe(1);
    await page.goto(`${H.server.url}/runs?status=running`);
    await page.getByText('No run matches these filters.').waitFor();

    // The run's own page says so too.
    await page.goto(`${H.server.url}/runs/${killed}`);
    expect(await page.locator('#run-status').textContent()).toBe('stopped (interrupted)');
    await page.getByRole('button', { name: 'Resume run' }).waitFor();
    expect(problems).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('a resume the server refuses says why beside the button, which can be pressed again', async () => {
    // A scenario run the CLI planned from a file outside the folders the server offers.
    const elsewhere = mkdtempSync(join(tmpdir(), 'paideia-elsewhere-'));
    const root = resolve(import.meta.dirname, '../..');
    cpSync(join(root, 'scenarios/knowledge-explanation.yaml'), join(elsewhere, 'k.yaml'));
    cpSync(join(root, 'scenarios/scripts'), join(elsewhere, 'scripts'), { recursive: true });
    const planned = (await startRun({ kind: 'scenario', file: join(elsewhere, 'k.yaml'), planOnly: true }, { store: H.store, env: {} }).done).runId;
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${planned}`);
    const resume = page.getByRole('button', { name: 'Resume run' });
    await resume.click();
    await expect.poll(() => page.locator('#resume-error').textContent()).toMatch(/k\.yaml" is not in a folder this server offers .*, or resume it with the CLI/);
    expect(await resume.isEnabled()).toBe(true);
    expect(problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('a stopped run\'s page follows a resume made elsewhere (another tab, the CLI): it shows the run completed without a reload', async () => {
    const config = { kind: 'suite' as const, suites: [join(H.dir, 'suites/mini')], models: ['baseline:copy'], repeats: 1 };
    const planned = (await startRun({ ...config, planOnly: true }, { store: H.store }).done).runId;
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${planned}`);
    expect(await page.locator('#run-status').textContent()).toBe('stopped');
    await page.getByRole('button', { name: 'Resume run' }).waitFor();
    expect((await startRun({ ...config, resume: planned }, { store: H.store }).done).status).toBe('completed');
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 20_000 }).toBe('completed');
    expect(await page.getByRole('button', { name: 'Resume run' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
