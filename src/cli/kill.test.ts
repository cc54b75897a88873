import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { grammarSuiteFile } from './testing/grammar-suite.js';
import { runCli, startCli, waitFor } from './testing/run-cli.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});


describe('kill -9 in the middle of a run', () => {
  it('loses no stored response, and the resumed run neither repeats nor misses a trial', async () => {
    const server = await startOpenAICompatibleServer({
      reply: req => {
        const content = JSON.stringify(req.body).match(/focal(\d+)/)?.[1] ?? 'x';
        return { status: 200, delayMs: 15, body: openAIChatBody({ text: `focail${content}`, usage: { prompt_tokens: 5, completion_tokens: 2 } }) };
      },
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-kill-'));
    const args = ['run', grammarSuiteFile(cwd, 'kill'), '-m', 'openai:m', '--repeats', '2', '--base-url', server.baseURL, '--concurrency', '4'];
    const { child, done } = startCli(args, { cwd });
    // Kill once a good share of the 120 calls has been answered.
    await waitFor(() => server.requests.length >= 40, 'the run did not get going');
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');

    const db = new Database(join(cwd, '.paideia', 'paideia.db'), { readonly: true });
    const storedBefore = db.prepare(`SELECT trial_id, result FROM calls WHERE status = 'ok'`).all() as Array<{ trial_id: string; result: string }>;
    db.close();
    expect(storedBefore.length).toBeGreaterThan(0);
    expect(storedBefore.length).toBeLessThan(120);
    const bodiesBefore = new Map(storedBefore.map(r => [r.trial_id, r.result]));
    const requestsBefore = server.requests.length;

    const resumed = await runCli(args, { cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = new Database(join(cwd, '.paideia', 'paideia.db'), { readonly: true });
    const calls = after.prepare(`SELECT trial_id, result FROM calls WHERE status = 'ok'`).all() as Array<{ trial_id: string; result: string }>;
    const trials = (after.prepare('SELECT COUNT(*) AS n FROM trials').get() as { n: number }).n;
    const scores = after.prepare('SELECT value FROM scores').all() as Array<{ value: number }>;
    after.close();
    expect(trials).toBe(120);
    // exactly one stored answer per trial: nothing duplicated, nothing missing
    expect(calls.length).toBe(120);
    expect(new Set(calls.map(c => c.trial_id)).size).toBe(120);
    // every answer stored before the kill is still there, unchanged
    for (const [trial, result] of bodiesBefore) expect(calls.find(c => c.trial_id === trial)?.result).toBe(result);
    // the resumed run asked only for what was not stored (the calls in flight at the kill were lost to the process, not to the store)
    expect(server.requests.length - requestsBefore).toBe(120 - storedBefore.length);
    expect(scores.filter(s => s.value === 1)).toHaveLength(120);
  });
});

describe('two processes on one run', () => {
  it('the second is refused while the first runs (exit 2), so no trial is called twice', async () => {
    // 60 calls of 300 ms two at a time: the first run lasts about 9 s, long enough for a second to
    // start even on a loaded machine (at 100 ms it sometimes finished first).
    const server = await startOpenAICompatibleServer({
      reply: () => ({ status: 200, delayMs: 300, body: openAIChatBody({ text: 'x', usage: { prompt_tokens: 5, completion_tokens: 2 } }) }),
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-twice-'));
    const args = ['run', grammarSuiteFile(cwd, 'kill'), '-m', 'openai:m', '--repeats', '1', '--base-url', server.baseURL, '--concurrency', '2'];
    const first = startCli(args, { cwd });
    await waitFor(() => server.requests.length >= 4, 'the first run did not get going');
    const second = await runCli(args, { cwd });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/is being run by process \d+/);
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    expect(server.requests).toHaveLength(60);
  });
});

describe('Ctrl-C during a run', () => {
  it('the first lets calls in flight finish and stores them (exit 3); the resume calls each trial once in all', async () => {
    const server = await startOpenAICompatibleServer({
      reply: () => ({ status: 200, delayMs: 150, body: openAIChatBody({ text: 'x', usage: { prompt_tokens: 5, completion_tokens: 2 } }) }),
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-sigint-'));
    const args = ['run', grammarSuiteFile(cwd, 'kill'), '-m', 'openai:m', '--repeats', '1', '--base-url', server.baseURL, '--concurrency', '4'];
    const { child, done } = startCli(args, { cwd });
    await waitFor(() => server.requests.length >= 6, 'the run did not get going');
    child.kill('SIGINT');
    const stopped = await done;
    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(/finishing the calls in flight/);
    const db = new Database(join(cwd, '.paideia', 'paideia.db'), { readonly: true });
    const stored = (db.prepare(`SELECT COUNT(*) AS n FROM calls WHERE status = 'ok'`).get() as { n: number }).n;
    db.close();
    // every request the server received was answered and stored: nothing paid for is lost
    expect(stored).toBe(server.requests.length);
    const resumed = await runCli(args, { cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.requests).toHaveLength(60);
  });
});
