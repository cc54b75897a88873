import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { EXIT_CODES } from './exit-codes.js';
import { grammarSuiteFile } from './testing/grammar-suite.js';
import { startCli, waitFor } from './testing/run-cli.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));


describe('a run paused past its lease (SIGSTOP), taken over, then resumed (SIGCONT)', () => {
  it('the paused process calls nothing more and exits 3 saying it was taken over; every request but its calls in flight is stored once; the stored spend stays within the cap', async () => {
    // Each call bills 5 + 100 tokens at $50/M: $0.00525; the cap lets about 47 of the 60 run.
    const server = await startOpenAICompatibleServer({
      reply: req => {
        const n = JSON.stringify(req.body).match(/focal(\d+)/)?.[1] ?? 'x';
        return { status: 200, delayMs: 100, body: openAIChatBody({ text: `focail${n}`, usage: { prompt_tokens: 5, completion_tokens: 100 } }) };
      },
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-pause-'));
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-11-29', models: { 'openai:tutor-1': { input: 50, output: 50 } } }));
    const capUsd = 0.25;
    const args = ['run', grammarSuiteFile(cwd, 'pause'), '-m', 'openai:tutor-1', '--prices', prices, '--base-url', server.baseURL,
      '--max-tokens', '100', '--concurrency', '2', '--cost-cap', String(capUsd)];
    const ttlMs = 1500;
    // Each process sends its own key, so the server can tell whose request it got.
    const of = (key: string) => server.requests.filter(r => r.headers.authorization === `Bearer ${key}`).length;
    const first = startCli(args, { cwd, env: { PAIDEIA_CLAIM_TTL_MS: String(ttlMs), OPENAI_API_KEY: 'sk-first-0000' } });
    await waitFor(() => of('sk-first-0000') >= 8, 'the first run did not get going');
    first.child.kill('SIGSTOP');
    await sleep(200);
    const firstAtPause = of('sk-first-0000');

    // Past the lease, a second process takes the run over.
    await sleep(ttlMs + 1000);
    const second = startCli(args, { cwd, env: { PAIDEIA_CLAIM_TTL_MS: String(ttlMs), OPENAI_API_KEY: 'sk-second-000' } });
    await waitFor(() => of('sk-second-000') >= 6, 'the second run did not take over');
    first.child.kill('SIGCONT');
    const [a, b] = await Promise.all([first.done, second.done]);

    expect(a.code, a.stderr).toBe(EXIT_CODES.stopped);
    expect(a.stderr).toMatch(/another process took run run-\w+ over while this one was paused/);
    expect(of('sk-first-0000'), 'requests of the first process after it was resumed').toBe(firstAtPause);
    expect([EXIT_CODES.ok, EXIT_CODES.stopped], b.stderr).toContain(b.code);

    const db = new Database(join(cwd, '.paideia', 'paideia.db'), { readonly: true });
    const calls = db.prepare('SELECT trial_id, step, cost_usd FROM calls').all() as Array<{ trial_id: string; step: number; cost_usd: number }>;
    db.close();
    // Nothing stored twice; what the server answered and nobody stored is at most the first
    // process's calls in flight when it was paused (refused when it came back).
    expect(new Set(calls.map(c => `${c.trial_id}/${c.step}`)).size).toBe(calls.length);
    const unstored = server.requests.length - calls.length;
    expect(unstored).toBeGreaterThanOrEqual(0);
    expect(unstored).toBeLessThanOrEqual(2);
    // The stored spend stays within the cap (the second process counted the paused one's
    // reservations); what was billed passes it by no more than the refused calls in flight.
    expect(calls.reduce((s, c) => s + c.cost_usd, 0)).toBeLessThanOrEqual(capUsd + 1e-9);
    expect(server.requests.length * 0.00525).toBeLessThanOrEqual(capUsd + unstored * 0.00525 + 1e-9);
  }, 60_000);
});
