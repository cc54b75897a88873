import { copyFileSync } from 'node:fs';
import { request as httpRequest, createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startValidityExampleServer } from '../cli/testing/validity-example-server.js';
import { openAIChatBody } from '../providers/testing/fake-servers.js';
import { startRun, type RunConfig } from '../runs.js';
import { createBlindTask } from './blind.js';
import { axeViolations } from './testing/page-checks.js';
import { problems, startHarness, type Harness } from './testing/harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
let H: Harness;
let priced: string;
let unpriced: string;
/** While set, the scripted model answers only once it resolves: a launched run surely still has work to do. */
let hold: Promise<void> | undefined;
beforeAll(async () => {
  H = await startHarness(async () => {
    if (hold) await hold;
    return { body: openAIChatBody({ text: 'himself', usage: { prompt_tokens: 40, completion_tokens: 8 } }) };
  });
  const suite = (models: string[]) => startRun({ kind: 'suite', suites: [join(H.dir, 'suites/mini')], models, repeats: 1 },
    { store: H.store, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: H.model.baseURL } }).done;
  priced = (await suite(['baseline:gold'])).runId;
  unpriced = (await suite(['local=openai:mock-hostile'])).runId;
}, 120_000);
afterAll(async () => { await H?.close(); });

const expectedConsole = (status: string) => `console: Failed to load resource: the server responded with a status of ${status}`;

async function checked(page: Page): Promise<void> {
  expect(problems).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
}

describe('the run page with a bad filter or offset in its URL', () => {
  it('keeps the facts, results and filters, and says beside the search box what is wrong with the pattern', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${priced}?q=((`);
    const box = page.getByRole('searchbox');
    await expect.poll(() => box.getAttribute('aria-invalid')).toBe('true');
    const note = page.locator(`#${await box.getAttribute('aria-describedby')}`);
    expect(await note.textContent()).toMatch(/^Not searched: not a regular expression: .*\(\(/);
    expect(await box.inputValue()).toBe('((');
    await page.getByRole('heading', { name: 'Results' }).waitFor();
    expect(await page.locator('#run-counts').textContent()).toBe('4 done, 0 failed, 0 pending of 4');
    expect(await page.locator('table.trials caption').textContent()).toBe('No trials shown: fix the filter above');
    expect(await page.locator('table.trials tbody tr').count()).toBe(0);
    expect(problems.splice(0)).toEqual([expectedConsole('400 (Bad Request)')]);
    await checked(page);
    // Fixed in the box, the search runs.
    await box.fill('himself');
    await box.press('Enter');
    await expect.poll(() => page.locator('table.trials caption').textContent()).toBe('Trials 1–4 of 4');
    expect(await box.getAttribute('aria-invalid')).toBeNull();
    await page.context().close();
  }, 60_000);

  it('marks an unknown show beside its select', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${priced}?show=bogus`);
    const select = page.getByLabel('Show');
    await expect.poll(() => select.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await select.getAttribute('aria-describedby')}`).textContent())
      .toBe('Not filtered: expected one of all, failures, passes, errors, differences, got "bogus"');
    await page.getByRole('heading', { name: 'Results' }).waitFor();
    expect(problems.splice(0)).toEqual([expectedConsole('400 (Bad Request)')]);
    await checked(page);
    await page.context().close();
  }, 60_000);

  it('says there is nothing past the last trial and links to the last page', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${priced}?offset=9999&show=passes`);
    await page.locator('#past-end').waitFor();
    expect(await page.locator('#past-end').textContent()).toBe('This run has 4 trials that pass these filters; none past 4. Go to the last page (trials 1–4)');
    expect(await page.locator('table.trials caption').textContent()).toBe('No trials past 4');
    await page.getByRole('link', { name: 'Go to the last page (trials 1–4)' }).click();
    await expect.poll(() => page.locator('table.trials caption').textContent()).toBe('Trials 1–4 of 4');
    expect(new URL(page.url()).search).toBe('?show=passes');
    await checked(page);
    await page.context().close();
  }, 60_000);
});

describe('unpriced models and model specs', () => {
  it('says "+ unknown" for an unpriced model\'s cost on the run and trial pages, and finds and labels the run by its spec', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs?q=mock`);
    const rows = page.locator('table.runs tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('local (openai:mock-hostile)');
    expect(await rows.first().textContent()).toContain('$0.0000 + unknown');
    await page.goto(`${H.server.url}/runs?q=gold`);
    await expect.poll(() => rows.count()).toBe(1);
    // An alias that is its own spec is said once.
    expect(await rows.first().locator('td').nth(4).textContent()).toBe('baseline:gold');

    await page.goto(`${H.server.url}/runs/${unpriced}`);
    await expect.poll(() => page.locator('#run-cost').textContent()).toBe('$0.0000 + unknown');
    await page.locator('table.trials tbody a').first().click();
    await expect.poll(() => page.locator('#trial-cost').textContent()).toBe('$0.0000 + unknown (judges included)');
    await page.goto(`${H.server.url}/runs/${priced}`);
    await expect.poll(() => page.locator('#run-cost').textContent()).toBe('$0.0000');
    const bundle = await (await fetch(`${H.server.url}/api/runs/${unpriced}/bundle.html`)).text();
    expect(bundle).toContain('spent $0.0000 + unknown;');
    await checked(page);
    await page.context().close();
  }, 60_000);
});

describe('blind scoring', () => {
  it('fills each saved output\'s form with what the expert saved, marked saved, to be revised', async () => {
    const example = await startValidityExampleServer();
    try {
      const file = join(H.dir, 'explain.yaml');
      copyFileSync(join(ROOT, 'examples/validity/explain.yaml'), file);
      const run = await startRun({ kind: 'scenario', file } as RunConfig, { store: H.store, env: { OPENAI_BASE_URL: example.baseURL, OPENAI_API_KEY: 'k' } }).done;
      const { path } = await createBlindTask(H.store, run.runId, 'anna.k');
      const api = `${H.server.url}/api${path}`;
      const task = await (await fetch(api)).json() as { items: Array<{ id: string }>; columns: Array<{ column: string; type: string; min: number; max: number }> };
      const first = task.items[0]!;
      const values = Object.fromEntries(task.columns.map(c => [c.column, c.type === 'bool' ? 1 : c.max]));
      const saved = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: first.id, values, comment: 'clear, a little long' }) });
      expect(saved.status).toBe(200);

      const page = await H.page();
      await page.goto(`${H.server.url}${path}`);
      const form = page.locator('form.blind').first();
      await form.waitFor();
      for (const c of task.columns) expect(await form.locator(`[name="${c.column}"]`).inputValue()).toBe(String(values[c.column]));
      expect(await form.getByLabel('Comment (optional)').inputValue()).toBe('clear, a little long');
      expect(await form.getByRole('status').textContent()).toBe('saved; change it and save again to revise');
      const other = page.locator('form.blind').nth(1);
      expect(await other.locator('input[type=number]').first().inputValue()).toBe('');
      expect(await other.getByRole('status').textContent()).toBe('');
      expect(await page.locator('#scored-count').textContent()).toBe(`1 of ${task.items.length} scored`);
      await checked(page);
      await page.context().close();
    } finally {
      await example.close();
    }
  }, 120_000);
});

describe('the launch form', () => {
  it('asks for a study file in words, and says only the new problem of a field on the next submit', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/launch?kind=validity`);
    const file = page.getByLabel('Study file');
    await page.getByRole('button', { name: 'Start run' }).click();
    await expect.poll(() => file.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await file.getAttribute('aria-describedby')}`).textContent()).toBe('choose a study file');
    expect(await page.getByRole('alert').textContent()).toContain('Study file: choose a study file');
    problems.splice(0);

    await page.goto(`${H.server.url}/launch?kind=suite`);
    await page.getByRole('checkbox', { name: /mini/ }).check();
    await page.getByLabel('Repeats').fill('1');
    await page.getByRole('button', { name: 'Start run' }).click();
    const models = page.getByLabel('Models (one per line)');
    const error = page.locator('#e-models');
    await expect.poll(() => error.textContent()).toMatch(/^name at least one model/);
    // Another problem with the same field: only the new one is said.
    await models.fill('nope');
    await page.getByRole('button', { name: 'Start run' }).click();
    // The field is cleared while the form is sent: wait for the new problem itself, not for the old one to go.
    await expect.poll(() => error.textContent()).toContain('nope');
    expect(await error.textContent()).not.toMatch(/name at least one model/);
    expect(await page.getByRole('alert').textContent()).not.toContain('name at least one model');
    problems.splice(0);
    await checked(page);
    await page.context().close();
  }, 60_000);
});

describe('deleting a run whose models have no price', () => {
  it('says its calls cost an unknown amount, not $0', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs`);
    await page.getByRole('button', { name: `delete run ${unpriced}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this run?' });
    expect(await dialog.locator('#delete-what').textContent()).toMatch(/artefacts \(\$0\.0000 \+ unknown of calls\)\. This cannot be undone\.$/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await H.store.getRun(unpriced)).toBeDefined();
    await page.context().close();
  }, 60_000);
});

describe('the launch form of a learning run', () => {
  it('sends list settings as their items take them: frames `all` and 3, puzzle context on and off as true and false', async () => {
    const page = await H.page();
    let sent: { config: Record<string, unknown> } | undefined;
    // The request is answered here: what matters is what the form sends, not a learning run.
    await page.route('**/api/launch', async route => {
      if (route.request().method() !== 'POST') return route.fallback();
      sent = route.request().postDataJSON() as typeof sent;
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ issues: [{ field: 'units', message: 'checked by the test' }] }) });
    });
    await page.goto(`${H.server.url}/launch?kind=learning`);
    await page.getByText('More settings').click();
    const frames = page.getByLabel('frames', { exact: true });
    expect(await frames.getAttribute('placeholder')).toBe('all');
    await frames.fill('all\n3');
    await page.getByLabel('puzzle context', { exact: true }).fill('on\nOFF');
    await page.getByRole('button', { name: 'Start run' }).click();
    await expect.poll(() => sent).toBeDefined();
    expect(sent!.config).toMatchObject({ kind: 'learning', frames: ['all', 3], puzzleContext: [true, false] });
    // The page shows the answer (and the browser has logged its 400) before the next test looks.
    await page.getByRole('alert').getByText('checked by the test').waitFor();
    expect(problems.splice(0)).toEqual([expectedConsole('400 (Bad Request)')]);
    await page.context().close();
  }, 60_000);
});

/** An HTTP proxy to the web server that can die: what the browser sees when the server goes away. */
async function dyingProxy(target: string): Promise<{ url: string; kill(): Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const out = httpRequest({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, answer => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>(ok => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    kill: () => new Promise<void>(ok => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}

describe('following a running run', () => {
  it('starts the running means from stored work, keeps the facts in step, and says so when the server goes away', async () => {
    let release!: () => void;
    hold = new Promise<void>(ok => { release = ok; });
    const info = await (await fetch(`${H.server.url}/api/launch`)).json() as { suites: string[] };
    const launched = await fetch(`${H.server.url}/api/launch`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { kind: 'suite', suites: [info.suites[0]], models: ['baseline:gold', 'local=openai:mock-live'], repeats: 1, concurrency: 8 } }),
    });
    const { runId } = await launched.json() as { runId: string };
    // The baseline's trials are done before the page opens.
    await expect.poll(async () => (await H.store.listScores(runId)).length, { timeout: 30_000 }).toBe(4);
    const proxy = await dyingProxy(H.server.url);
    const page = await H.page();
    try {
      // Through the proxy the server sees another port in the Host header's place; the proxy sets it back.
      await page.goto(`${proxy.url}/runs/${runId}`);
      const means = page.locator('.live table tbody tr');
      await expect.poll(() => means.first().textContent()).toBe('baseline:gold1.0004');
      expect(await page.locator('#live-counts').textContent()).toMatch(/^4 of 8 trials · 0 failed · spent \$0\.0000 \+ unknown/);
      expect(await page.locator('#run-counts').textContent()).toBe('4 done, 0 failed, 4 pending of 8');
      expect(problems).toEqual([]);
      await checked(page);

      await proxy.kill();
      await page.getByRole('alert').getByText('Lost the connection to the server; reload when it is back.').waitFor();
      expect(await page.getByRole('button', { name: 'Stop (drain)' }).isDisabled()).toBe(true);
      problems.splice(0);
    } finally {
      release();
      hold = undefined;
      await page.context().close();
    }
    await expect.poll(async () => (await H.store.getRun(runId))?.status, { timeout: 60_000 }).toBe('completed');
  }, 120_000);
});
