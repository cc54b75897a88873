import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../core/index.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../../providers/testing/fake-servers.js';
import { openStore } from '../../store/index.js';
import { createDatabase, startTestCluster, type TestCluster } from '../../store/postgres/testing/cluster.js';
import { runPasted } from '../testing/run-pasted.js';
import { runCli, startCli, waitFor, type CliResult } from '../testing/run-cli.js';
import { busiestWindow as busiest } from '../../providers/testing/busiest-window.js';

let cluster: Promise<TestCluster> | undefined;
const started = () => (cluster ??= startTestCluster());
let databases = 0;
const servers: FakeServer[] = [];
afterEach(async () => { await Promise.all(servers.splice(0).map(s => s.close())); });
afterAll(async () => (await cluster)?.destroy());

const ITEMS = 60;

/** A suite of grammar items and a model server that answers each right after `delayMs`. */
async function setUp(delayMs: number, heard: number[] = []): Promise<{ cwd: string; suite: string; server: FakeServer; url: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'paideia-workers-'));
  const suite = join(cwd, 'suite.jsonl');
  writeFileSync(suite, Array.from({ length: ITEMS }, (_, i) => JSON.stringify({
    id: `w-${i}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${i}`, pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' },
    accepted: [`focail${i}`], source: { dataset: 'test', key: String(i) }, licence: 'CC0-1.0', evidence: 'synthetic',
    visibility: 'private', contamination: 'private', human_checked: false,
  })).join('\n'));
  const server = await startOpenAICompatibleServer({
    reply: req => ({
      status: 200, delayMs: (heard.push(performance.now()), delayMs),
      body: openAIChatBody({ text: `focail${JSON.stringify(req.body).match(/focal(\d+)/)?.[1] ?? 'x'}`, usage: { prompt_tokens: 50, completion_tokens: 50 } }),
    }),
  });
  servers.push(server);
  const url = createDatabase(await started(), `workers_${++databases}`);
  return { cwd, suite, server, url };
}

async function plan(s: { cwd: string; suite: string; server: FakeServer; url: string }, extra: string[] = []): Promise<string> {
  const r = await runCli(['run', s.suite, '-m', 'openai:m', '--repeats', '2', '--base-url', s.server.baseURL, '--store', s.url, '--plan-only', ...extra], { cwd: s.cwd });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/planned; run its trials with: paideia worker --run run-\w+ --store postgres:/);
  expect(s.server.requests).toHaveLength(0);
  return r.stdout.trim();
}

const worker = (s: { cwd: string; url: string }, runId: string, extra: string[] = []) =>
  startCli(['worker', '--store', s.url, '--run', runId, '--concurrency', '4', '--batch', '8', ...extra], { cwd: s.cwd });

/** What the store holds of the run: answered trials, stored answers per trial, statuses, spend. */
async function stored(url: string, runId: string) {
  const store: Store = await openStore(url, { readOnly: true });
  try {
    const calls = (await store.listCalls(runId)).filter(c => c.status === 'ok');
    const perTrial = new Map<string, number>();
    for (const c of calls) perTrial.set(c.trialId, (perTrial.get(c.trialId) ?? 0) + 1);
    const statuses = [...(await store.listTrialStatuses(runId)).values()];
    return { calls: calls.length, perTrial, done: statuses.filter(x => x === 'done').length, spent: await store.spentUsd(runId), run: await store.getRun(runId) };
  } finally {
    await store.close();
  }
}

const finished = (r: CliResult) => Number(r.stderr.match(/this worker finished (\d+) trial/)?.[1] ?? NaN);

describe('paideia worker on a PostgreSQL store', () => {
  it('three worker processes run a planned run: no trial lost, none answered twice', async () => {
    const s = await setUp(10);
    const runId = await plan(s);
    const results = await Promise.all([worker(s, runId), worker(s, runId), worker(s, runId)].map(w => w.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(results.map(finished).reduce((a, b) => a + b, 0)).toBe(2 * ITEMS);
    expect(s.server.requests).toHaveLength(2 * ITEMS);
    const got = await stored(s.url, runId);
    expect([got.calls, got.perTrial.size, Math.max(...got.perTrial.values()), got.done, got.run?.status]).toEqual([2 * ITEMS, 2 * ITEMS, 1, 2 * ITEMS, 'completed']);
    // report and runs read the shared store like a file.
    const report = await runCli(['report', runId, '--store', s.url, '--format', 'json', '--out', '-'], { cwd: s.cwd });
    expect(report.code, report.stderr).toBe(0);
    const runs = await runCli(['runs', '--store', s.url, '--format', 'json'], { cwd: s.cwd });
    expect(JSON.parse(runs.stdout).map((r: { id: string }) => r.id)).toEqual([runId]);
  }, 240_000);

  it('the cost cap planned with the run holds across workers', async () => {
    const s = await setUp(10);
    const prices = join(s.cwd, 'prices.json');
    // $0.01 per call at most: 50 + 100 (max) tokens at $50/M; answers cost $0.005.
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-12-01', models: { 'openai:m': { input: 50, output: 50 } } }));
    const cap = 0.2;
    const runId = await plan(s, ['--prices', prices, '--max-tokens', '150', '--cost-cap', String(cap)]);
    const results = await Promise.all([worker(s, runId), worker(s, runId), worker(s, runId)].map(w => w.done));
    for (const r of results) expect(r.code, r.stderr).toBe(3);
    const got = await stored(s.url, runId);
    expect(got.spent).toBeLessThanOrEqual(cap + 1e-12);
    // Reservations are worst cases, so the cap stops the run before every trial ran, but after most of the room was used.
    expect(got.calls).toBeGreaterThanOrEqual(20);
    expect(got.calls).toBeLessThan(2 * ITEMS);
    expect(s.server.requests.length).toBe(got.calls);
    // Each worker says how to raise the cap for the workers; pasted, then a worker started again, the run completes.
    const raise = /raise it for its workers with: (.*? --plan-only --store \S+), then start them again: (.*)$/m.exec(results[0]!.stderr);
    expect(raise, results[0]!.stderr).not.toBeNull();
    expect(raise![1]).toMatch(new RegExp(`^paideia run --resume ${runId} --cost-cap \\d`));
    const raised = await runPasted(raise![1]!, { cwd: s.cwd });
    expect(raised.code, raised.stderr).toBe(0);
    expect(s.server.requests.length).toBe(got.calls);
    const again = await runPasted(raise![2]!, { cwd: s.cwd });
    expect(again.code, again.stderr).toBe(0);
    const done = await stored(s.url, runId);
    expect([done.done, done.calls, s.server.requests.length]).toEqual([2 * ITEMS, 2 * ITEMS, 2 * ITEMS]);
  }, 240_000);

  it('a worker whose trials failed exits 1 and says how to ask them again; one whose server is gone says where, and exits 3', async () => {
    const s = await setUp(5);
    let failing = true;
    s.server.enqueue(...Array.from({ length: 2 * ITEMS }, () => (req: { body: unknown }) => (failing && /focal\d*[02468]\b/.test(JSON.stringify(req.body))
      ? { status: 400, body: { error: { message: 'bad request' } } }
      : { status: 200, body: openAIChatBody({ text: `focail${JSON.stringify(req.body).match(/focal(\d+)/)?.[1]}` }) })));
    const runId = await plan(s);
    const first = await worker(s, runId).done;
    expect(first.code, first.stderr).toBe(1);
    const failed = Number(/this worker finished \d+ trial\(s\), (\d+) failed/.exec(first.stderr)?.[1]);
    expect(failed).toBe(ITEMS);
    const hint = /ask them again with: (.*)$/m.exec(first.stderr)?.[1];
    expect(hint).toBe(`paideia run --resume ${runId} --retry-errors --store ${s.url}`);
    // A worker that finds nothing left says the run's failures all the same, and exits 1.
    const later = await worker(s, runId).done;
    expect(later.code, later.stderr).toBe(1);
    expect(later.stderr).toContain(`the run has ${ITEMS} failed trial(s) (provider errors or a server gone, not scored as wrong); ask them again with: ${hint}`);
    failing = false;
    const retried = await runPasted(hint!, { cwd: s.cwd });
    expect(retried.code, retried.stderr).toBe(0);
    expect((await stored(s.url, runId)).done).toBe(2 * ITEMS);

    // Planned against an address nothing listens at.
    const dead = await runCli(['run', s.suite, '-m', 'openai:m', '--repeats', '1', '--base-url', 'http://127.0.0.1:9/v1', '--store', s.url, '--plan-only'], { cwd: s.cwd });
    expect(dead.code, dead.stderr).toBe(0);
    const stopped = await worker(s, dead.stdout.trim()).done;
    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(new RegExp(`nothing answers at http://127\\.0\\.0\\.1:9/v1 \\(ECONNREFUSED\\); its trials stay pending\\. Start the model server there, then start the workers again: paideia worker --run ${dead.stdout.trim()} --store `));
  }, 240_000);

  it('the rate limit planned with the run holds across three workers: the server never hears more than the limit allows', async () => {
    const heard: number[] = [];
    const s = await setUp(5, heard);
    // 20 requests a second (a burst of 20, one second's worth) for the whole run, whatever the workers.
    const runId = await plan(s, ['--rpm', '1200']);
    const t0 = performance.now();
    const results = await Promise.all([worker(s, runId), worker(s, runId), worker(s, runId)].map(w => w.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(heard).toHaveLength(2 * ITEMS);
    // A token bucket lets through at most its burst plus the rate times the window, and each
    // worker may hold one permit taken ahead (about 50 ms worth of the rate) for up to 200 ms:
    // 20 + 20 W + 3. Three workers each limited on their own would be heard at 60 a second.
    expect(busiest(heard, 1000)).toBeLessThanOrEqual(20 + 20 + 3);
    expect(busiest(heard, 3000)).toBeLessThanOrEqual(20 + 60 + 3);
    // 120 calls at 20 a second after a burst of 20: at least 5 s, whatever the number of workers.
    expect(performance.now() - t0).toBeGreaterThan(4900);
    const got = await stored(s.url, runId);
    expect([got.calls, got.perTrial.size, got.done, got.run?.status]).toEqual([2 * ITEMS, 2 * ITEMS, 2 * ITEMS, 'completed']);
  }, 240_000);

  it('the cap on calls in flight planned with the run holds across three workers', async () => {
    const heard: number[] = [];
    const s = await setUp(40, heard);
    const runId = await plan(s, ['--max-in-flight', '3']);
    // Each worker would run 4 at once (12 together); the cap lets 3 through, across all of them.
    const results = await Promise.all([worker(s, runId), worker(s, runId), worker(s, runId)].map(w => w.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(heard).toHaveLength(2 * ITEMS);
    // The server answers 40 ms after a request arrives, and a slot is free again only once the
    // answer is back: no window shorter than 40 ms holds more than 3 arrivals.
    expect(busiest(heard, 40)).toBeLessThanOrEqual(3);
    expect(busiest(heard, 40)).toBe(3);
    const got = await stored(s.url, runId);
    expect([got.calls, got.done, got.run?.status]).toEqual([2 * ITEMS, 2 * ITEMS, 'completed']);
  }, 240_000);

  it('a worker killed with -9 mid-run and started again: the run completes, repeats at most its calls in flight', async () => {
    const s = await setUp(40);
    const runId = await plan(s);
    const steady = worker(s, runId, ['--concurrency', '2']);
    const doomed = worker(s, runId);
    await waitFor(() => s.server.requests.length >= 30, 'the workers did not get going', 120_000);
    doomed.child.kill('SIGKILL');
    expect(s.server.requests.length).toBeLessThan(2 * ITEMS);
    expect((await doomed.done).signal).toBe('SIGKILL');
    const again = await worker(s, runId).done;
    const first = await steady.done;
    expect([first.code, again.code], first.stderr + again.stderr).toEqual([0, 0]);
    const got = await stored(s.url, runId);
    expect([got.perTrial.size, Math.max(...got.perTrial.values()), got.done, got.run?.status]).toEqual([2 * ITEMS, 1, 2 * ITEMS, 'completed']);
    // Answers lost with the killed process were asked again: no more than it had in flight (4).
    expect(s.server.requests.length - 2 * ITEMS).toBeGreaterThanOrEqual(0);
    expect(s.server.requests.length - 2 * ITEMS).toBeLessThanOrEqual(4);
  }, 240_000);

  it('PostgreSQL stopped for a few seconds mid-run: workers back off, reconnect and finish, losing nothing', async () => {
    const s = await setUp(30);
    const runId = await plan(s);
    const workers = [worker(s, runId), worker(s, runId)];
    await waitFor(() => s.server.requests.length >= 30, 'the workers did not get going', 120_000);
    // Both at work (each holding claims), not one still opening the store when it stops: a
    // worker that cannot open the store at all exits 2 by design (on a loaded machine it could).
    const watch = await openStore(s.url, { readOnly: true });
    try {
      for (const until = Date.now() + 120_000; (await watch.listClaimHolders(runId)).length < 2;) {
        if (Date.now() > until) throw new Error('the two workers did not both get going');
        await new Promise(resolve => setTimeout(resolve, 20));
      }
    } finally {
      await watch.close();
    }
    const c = await started();
    c.stop();
    const atStop = s.server.requests.length;
    expect(atStop).toBeLessThan(2 * ITEMS);
    await new Promise(resolve => setTimeout(resolve, 3000));
    c.start();
    const results = await Promise.all(workers.map(w => w.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const got = await stored(s.url, runId);
    expect([got.perTrial.size, Math.max(...got.perTrial.values()), got.done, got.run?.status]).toEqual([2 * ITEMS, 1, 2 * ITEMS, 'completed']);
    // Answers that came back while the database was away were stored after it returned, not asked again.
    expect(s.server.requests.length).toBe(2 * ITEMS);
  }, 240_000);
});
