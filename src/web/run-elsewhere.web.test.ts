import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, waitFor, type CliResult } from '../cli/testing/run-cli.js';
import { axeViolations } from './testing/page-checks.js';
import { problems, slowReply, startHarness, type Harness } from './testing/harness.js';

let H: Harness;
let open!: () => void;
let cli: { done: Promise<CliResult> };
let runId: string;
beforeAll(async () => {
  // The model answers the first request and holds the others until the test lets them go.
  const gate = new Promise<void>(resolve => (open = resolve));
  H = await startHarness(slowReply(() => 'himself', 0, gate));
  cli = startCli(['run', join(H.dir, 'suites/mini'), '-m', 'openai:tutor', '--repeats', '1', '--base-url', H.model.baseURL, '--store', `sqlite:${join(H.dir, 'paideia.db')}`],
    { cwd: H.dir, env: { OPENAI_API_KEY: 'sk-cli' } });
  await waitFor(() => H.model.requests.length >= 2, 'the CLI run did not get going', 60_000);
  runId = (await H.store.listRuns())[0]!.id;
}, 120_000);
afterAll(async () => {
  open?.();
  await cli?.done;
  await H?.close();
});

describe('a run another process is running, in the web app', () => {
  it('offers no Resume, says who runs it, and its page and the runs list show it end without a reload', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${runId}`);
    expect(await page.locator('#run-status').textContent()).toBe('running');
    await page.locator('#run-elsewhere').waitFor();
    expect(await page.getByRole('button', { name: 'Resume run' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    const list = await page.context().newPage();
    await list.goto(`${H.server.url}/runs`);
    const status = list.locator('table.runs tbody tr').first().locator('td').nth(3);
    expect(await status.textContent()).toBe('running');

    open();
    expect((await cli.done).code).toBe(0);
    await expect.poll(() => page.locator('#run-status').textContent(), { timeout: 15_000 }).toBe('completed');
    expect(await page.locator('#run-counts').textContent()).toBe('4 done, 0 failed, 0 pending of 4');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('completed');
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
