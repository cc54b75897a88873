import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startCli, waitFor } from './testing/run-cli.js';
import { runPasted } from './testing/run-pasted.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

/** Calls of the served agents (the judges of the shipped scenario are scripted baselines). */
const SERVED = `json_extract(request, '$.context.role') != 'judge'`;

const scenario = new URL('../../scenarios/socratic-problem-solving.yaml', import.meta.url).pathname;

describe('scenario run killed with SIGKILL', () => {
  it('keeps every stored turn, and the resumed run asks only for the turns that were not stored', async () => {
    // Teacher and student are served (slowly) by a local server; the judges stay scripted.
    const server = await startOpenAICompatibleServer({
      reply: req => {
        const n = JSON.stringify(req.body).length;
        return { status: 200, delayMs: 10, body: openAIChatBody({ text: `Turn answer ${n}. What do you notice next?`, usage: { prompt_tokens: 20, completion_tokens: 8 } }) };
      },
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-scn-kill-'));
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const args = ['scenario', 'run', scenario, '--model', 'teacher=openai:tutor', '--model', 'student=openai:learner'];
    const { child, done } = startCli(args, { cwd, env });
    await waitFor(() => server.requests.length >= 40, 'the scenario run did not get going');
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');

    const db = join(cwd, '.paideia', 'paideia.db');
    const before = new Database(db, { readonly: true });
    // The scripted judges' calls are stored too, but they never reach the server: count the served turns.
    const storedBefore = before.prepare(`SELECT trial_id || '#' || step AS k, result FROM calls WHERE status = 'ok' AND ${SERVED}`).all() as Array<{ k: string; result: string }>;
    before.close();
    expect(storedBefore.length).toBeGreaterThan(0);
    const requestsBefore = server.requests.length;

    const resumed = await runCli([...args, '--resume'], { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = new Database(db, { readonly: true });
    const calls = after.prepare(`SELECT trial_id || '#' || step AS k, result FROM calls WHERE status = 'ok' AND ${SERVED}`).all() as Array<{ k: string; result: string }>;
    after.close();
    // one stored answer per dialogue turn: nothing duplicated
    expect(new Set(calls.map(c => c.k)).size).toBe(calls.length);
    // every turn stored before the kill is still there, unchanged
    const now = new Map(calls.map(c => [c.k, c.result]));
    for (const c of storedBefore) expect(now.get(c.k)).toBe(c.result);
    // the resumed run asked only for turns that had not been stored
    expect(server.requests.length - requestsBefore).toBe(calls.length - storedBefore.length);
  });
});

describe('scenario run interrupted with Ctrl-C (SIGINT)', () => {
  it('the first SIGINT drains: no new turn starts, the calls in flight finish and are stored, exit 3; the printed resume finishes the run', async () => {
    let answered = 0;
    const server = await startOpenAICompatibleServer({
      reply: async req => {
        const n = JSON.stringify(req.body).length;
        await new Promise(resolve => setTimeout(resolve, 400));
        answered++;
        return { status: 200, body: openAIChatBody({ text: `Turn answer ${n}. What do you notice next?`, usage: { prompt_tokens: 20, completion_tokens: 8 } }) };
      },
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-scn-int-'));
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const { child, done } = startCli(['scenario', 'run', scenario, '--model', 'teacher=openai:tutor', '--model', 'student=openai:learner'], { cwd, env });
    // A request has just arrived: it (and the others of its round) is in flight for 400 ms.
    await waitFor(() => server.requests.length >= 12, 'the scenario run did not get going');
    child.kill('SIGINT');
    const inFlight = server.requests.length - answered;
    expect(inFlight).toBeGreaterThan(0);
    const r = await done;
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('finishing the calls in flight; press Ctrl-C again to abort them');
    const runId = r.stdout.trim();

    const db = join(cwd, '.paideia', 'paideia.db');
    const stored = () => {
      const d = new Database(db, { readonly: true });
      try {
        return {
          ok: (d.prepare(`SELECT COUNT(*) AS n FROM calls WHERE status = 'ok' AND ${SERVED}`).get() as { n: number }).n,
          all: (d.prepare(`SELECT COUNT(*) AS n FROM calls WHERE ${SERVED}`).get() as { n: number }).n,
          run: d.prepare('SELECT status FROM runs WHERE id = ?').get(runId) as { status: string } | undefined,
        };
      } finally {
        d.close();
      }
    };
    const before = stored();
    // Every request the server got was answered and is stored as ok: none was aborted (before: the
    // calls in flight were aborted, and the server's answers to them were lost).
    expect(answered).toBe(server.requests.length);
    expect(before.ok).toBe(server.requests.length);
    expect(before.all).toBe(before.ok);
    expect(before.run?.status).toBe('stopped');
    // No new turn started after the signal: at most the calls in flight then were sent since.
    expect(server.requests.length).toBeLessThan(12 + inFlight + 8);

    const line = r.stderr.split('\n').find(l => l.startsWith('resume with: '));
    expect(line, r.stderr).toBeDefined();
    const requestsBefore = server.requests.length;
    const resumed = await runPasted(line!.slice('resume with: '.length), { cwd: tmpdir(), env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trim()).toBe(runId);
    const after = stored();
    expect(after.run?.status).toBe('completed');
    // The resume asked only for the turns that were not stored.
    expect(server.requests.length - requestsBefore).toBe(after.ok - before.ok);
  }, 120_000);
});

describe('scenario run interrupted with Ctrl-C twice', () => {
  it('the second SIGINT aborts the calls in flight: exit 3 at once, nothing stored as failed', async () => {
    const server = await startOpenAICompatibleServer({
      reply: () => ({ status: 200, delayMs: 5000, body: openAIChatBody({ text: 'What do you notice?', usage: { prompt_tokens: 20, completion_tokens: 8 } }) }),
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-scn-int2-'));
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const { child, done } = startCli(['scenario', 'run', scenario, '--model', 'teacher=openai:tutor', '--model', 'student=openai:learner'], { cwd, env });
    await waitFor(() => server.requests.length >= 8, 'the scenario run did not get going');
    child.kill('SIGINT');
    await new Promise(resolve => setTimeout(resolve, 300));
    const sent = Date.now();
    child.kill('SIGINT');
    const r = await done;
    expect(r.code, r.stderr).toBe(3);
    // Well before the server's 5 s answers: the calls were aborted, not waited for.
    expect(Date.now() - sent).toBeLessThan(4000);
    const d = new Database(join(cwd, '.paideia', 'paideia.db'), { readonly: true });
    try {
      expect((d.prepare(`SELECT COUNT(*) AS n FROM calls WHERE ${SERVED}`).get() as { n: number }).n).toBe(0);
      expect((d.prepare('SELECT status FROM runs').get() as { status: string }).status).toBe('stopped');
    } finally {
      d.close();
    }
  }, 60_000);
});

describe('scenario run with a cost cap', () => {
  it('stops before a call could pass the cap (exit 3) and resumes with a higher cap without repeating a call', async () => {
    const server = await startOpenAICompatibleServer({
      reply: () => ({ status: 200, body: openAIChatBody({ text: 'What do you notice?', usage: { prompt_tokens: 20, completion_tokens: 8 } }) }),
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-scn-cap-'));
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-11-29', models: { 'openai:tutor': { input: 50, output: 50 }, 'openai:learner': { input: 50, output: 50 }, 'baseline:*': { input: 0, output: 0 } } }));
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const args = ['scenario', 'run', scenario, '--model', 'teacher=openai:tutor', '--model', 'student=openai:learner', '--prices', prices];
    // Each turn is reserved at its worst case (max_tokens 4,096 at $50/M: about $0.21), so a $0.30
    // cap lets one turn run at a time until the spend (28 tokens a turn) leaves no room for one more.
    const capped = await runCli([...args, '--cost-cap', '0.3'], { cwd, env });
    expect(capped.code, capped.stderr).toBe(3);
    expect(capped.stderr).toMatch(/cost cap/);
    expect(capped.stderr).toMatch(/the call it refused was reserved at up to \$\d+\.\d{4} .*a smaller max_tokens in the models' kargs lowers that/);
    const db = join(cwd, '.paideia', 'paideia.db');
    const spentBefore = new Database(db, { readonly: true });
    const spent = (spentBefore.prepare('SELECT SUM(cost_usd) AS s, COUNT(*) AS n FROM calls').get() as { s: number; n: number });
    spentBefore.close();
    expect(spent.n).toBeGreaterThan(0);
    expect(spent.s).toBeLessThanOrEqual(0.3);
    expect(server.requests.length).toBe(spent.n);
    const resumed = await runCli([...args, '--cost-cap', '10', '--resume'], { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = new Database(db, { readonly: true });
    const total = (after.prepare(`SELECT COUNT(*) AS n FROM calls WHERE status = 'ok' AND ${SERVED}`).get() as { n: number }).n;
    const judged = (after.prepare(`SELECT COUNT(*) AS n FROM calls WHERE status = 'ok' AND NOT ${SERVED}`).get() as { n: number }).n;
    after.close();
    // Every served request is a stored call, and the scripted judges' calls are stored as well.
    expect(server.requests.length).toBe(total);
    expect(judged).toBeGreaterThan(0);
  });

  it('refuses a cap for a model without a price (exit 2)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-scn-cap-'));
    const r = await runCli(['scenario', 'run', scenario, '--model', 'teacher=openai:unpriced-xyz', '--cost-cap', '1'], { cwd, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'k' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "--cost-cap": no price for openai:unpriced-xyz/);
  });

  it('refuses a cap (exit 2, no request) for a model with a list price served at another endpoint', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'x' }) }) });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-scn-cap-'));
    const r = await runCli(['scenario', 'run', scenario, '--model', 'teacher=openai:gpt-4.1', '--base-url', server.baseURL, '--cost-cap', '1'], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/field "--cost-cap": openai:gpt-4\.1 is served from http:\/\/127\.0\.0\.1:\d+\/v1, not api\.openai\.com/);
    expect(server.requests.length).toBe(0);
  });
});
