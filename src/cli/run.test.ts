import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { moveEndpoint } from '../engine/endpoints.js';
import { anthropicMessageBody, lastUserText, openAIChatBody, refusedURL, startAnthropicServer, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import { runCli } from './testing/run-cli.js';

const suite = new URL('./__fixtures__/mini-suite.jsonl', import.meta.url).pathname;
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'paideia-cli-'));
}

function completion(content: string, usage = { prompt_tokens: 10, completion_tokens: 5 }) {
  return { status: 200, body: openAIChatBody({ text: content, model: 'tutor-1', usage }) };
}

async function reportJson(cwd: string, runId: string) {
  const r = await runCli(['report', runId, '--format', 'json', '--out', 'r.json'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(readFileSync(join(cwd, 'r.json'), 'utf8')) as {
    cells: Array<{ model: string; test: string; mean: number | null; n: number; failed: number }>;
    models: Array<{ alias: string; isBaseline: boolean; costUsd: number }>;
  };
}

describe('paideia run', () => {
  it('runs baselines; gold scores 100% on the rule-marked tests and copy is the floor', async () => {
    const cwd = workdir();
    const r = await runCli(['run', suite, '-m', 'baseline:gold', '-m', 'baseline:copy', '--repeats', '2'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const runId = r.stdout.trim();
    const report = await reportJson(cwd, runId);
    for (const test of ['grammar_forms', 'tutor_accuracy']) {
      expect(report.cells.find(c => c.model === 'baseline:gold' && c.test === test)?.mean).toBe(1);
    }
    expect(report.cells.find(c => c.model === 'baseline:copy' && c.test === 'grammar_forms')?.mean).toBeCloseTo(1 / 3, 10);
    // copy is right exactly on the error-free tutor item
    expect(report.cells.find(c => c.model === 'baseline:copy' && c.test === 'tutor_accuracy')?.mean).toBe(0.5);
    expect(report.models.every(m => m.isBaseline)).toBe(true);
    // the same command again resumes the same run and calls nothing
    const again = await runCli(['run', suite, '-m', 'baseline:gold', '-m', 'baseline:copy', '--repeats', '2'], { cwd });
    expect(again.stdout.trim()).toBe(runId);
    expect(again.stderr).toMatch(/0 trial\(s\) to run; 20 done/);
  });

  it('exits 2 naming file, line and field for a bad item file, and runs nothing', async () => {
    const cwd = workdir();
    const bad = join(cwd, 'bad.jsonl');
    const lines = readFileSync(suite, 'utf8').trim().split('\n');
    const broken = JSON.parse(lines[1]!) as Record<string, unknown>;
    delete broken.licence;
    writeFileSync(bad, [lines[0], JSON.stringify(broken), '{oops'].join('\n'));
    const r = await runCli(['run', bad, '-m', 'baseline:gold'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:2, field "licence"`);
    expect(r.stderr).toContain(`${bad}:3: not valid JSON`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('exits 2 on a bad model spec with the expected format', async () => {
    const r = await runCli(['run', suite, '-m', 'gpt-4.1'], { cwd: workdir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "--model".*expected "provider:model"/);
  });

  it('runs against an OpenAI-compatible server, prices the calls and escapes model text in the report', async () => {
    const payload = '<script>alert("pwned")</script><img src=x onerror=alert(1)>';
    const server = await startOpenAICompatibleServer({ reply: () => completion(payload) });
    servers.push(server);
    const cwd = workdir();
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-11-29', models: { 'openai:tutor-1': { input: 1000, output: 2000 } } }));
    const r = await runCli(['run', suite, '-m', 'openai:tutor-1', '-m', 'baseline:gold', '--repeats', '1', '--prices', prices, '--base-url', server.baseURL, '--report', 'report.html'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(5);
    const html = readFileSync(join(cwd, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(html).toContain("Content-Security-Policy");
    const report = await reportJson(cwd, r.stdout.trim());
    // 5 calls x (10 input x $1000/M + 5 output x $2000/M) = 5 x 0.02
    expect(report.models.find(m => m.alias === 'openai:tutor-1')?.costUsd).toBeCloseTo(0.1, 10);
  });

  it('keeps provider failures apart from wrong answers (exit 1) and retries only them', async () => {
    let healthy = false;
    const server = await startOpenAICompatibleServer({
      reply: req => (healthy || !JSON.stringify(req.body).includes('Aetópach') ? completion('Aetópaigh') : { status: 500, body: { error: { message: 'upstream broke' } } }),
    });
    servers.push(server);
    const cwd = workdir();
    const args = ['run', suite, '-m', 'openai:tutor-1', '--repeats', '1', '--base-url', server.baseURL, '--max-attempts', '2'];
    const first = await runCli(args, { cwd });
    expect(first.code, first.stderr).toBe(1);
    expect(first.stderr).toMatch(/2 trial\(s\) failed/);
    const runId = first.stdout.trim();
    const report = await reportJson(cwd, runId);
    const gf = report.cells.find(c => c.test === 'grammar_forms')!;
    expect([gf.n, gf.failed, gf.mean]).toEqual([1, 2, 0]);
    const before = server.requests.length;
    expect(before).toBe(3 + 2 * 2); // 3 good calls, 2 failing trials x 2 attempts
    healthy = true;
    // a plain resume and a retry both say what the run holds: 3 done, 2 failed
    const resumed = await runCli(['run', '--resume', runId], { cwd });
    expect(resumed.stderr).toContain('0 trial(s) to run; 3 done and 2 failed before.');
    const retried = await runCli(['run', '--resume', runId, '--retry-errors', '--base-url', server.baseURL], { cwd });
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain('2 trial(s) to run; 3 done and 2 failed before (2 of them run again).');
    expect(server.requests.length - before).toBe(2);
  });

  it('stops at the cost cap with exit 3 and resumes without repeating a call', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => completion('Aetópaigh', { prompt_tokens: 100, completion_tokens: 100 }) });
    servers.push(server);
    const cwd = workdir();
    const prices = join(cwd, 'prices.json');
    // $0.01 per call of 100 + 100 tokens at $50/M both ways
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-11-29', models: { 'openai:tutor-1': { input: 50, output: 50 } } }));
    const args = ['run', suite, '-m', 'openai:tutor-1', '--repeats', '2', '--prices', prices, '--base-url', server.baseURL, '--max-tokens', '100', '--concurrency', '1'];
    const capped = await runCli([...args, '--cost-cap', '0.035'], { cwd });
    expect(capped.code, capped.stderr).toBe(3);
    expect(capped.stderr).toMatch(/cost cap/);
    // What the refused call was reserved at, and what lowers it.
    expect(capped.stderr).toMatch(/the call it refused was reserved at up to \$0\.0\d{3} \(its prompt and the most tokens it may write, at the model's price\); a lower --max-tokens lowers that/);
    const spent = server.requests.length;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(10);
    const resumed = await runCli([...args, '--cost-cap', '10'], { cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.requests.length).toBe(10);
  });

  it('refuses a cap (exit 2, no request) for a model known by name but served at another endpoint, where its list price does not apply', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => completion('x', { prompt_tokens: 100000, completion_tokens: 100000 }) });
    servers.push(server);
    const cwd = workdir();
    const r = await runCli(['run', suite, '-m', 'openai:gpt-4.1', '--repeats', '1', '--base-url', server.baseURL, '--cost-cap', '0.01'], { cwd });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/field "--cost-cap": openai:gpt-4\.1 is served from http:\/\/127\.0\.0\.1:\d+\/v1, not api\.openai\.com.*give --prices FILE naming openai:gpt-4\.1.*or drop --cost-cap/);
    expect(server.requests.length).toBe(0);
    // Priced by a file, the same run goes.
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-12-05', models: { 'openai:gpt-4.1': { input: 0.01, output: 0.01 } } }));
    const priced = await runCli(['run', suite, '-m', 'openai:gpt-4.1', '--repeats', '1', '--base-url', server.baseURL, '--cost-cap', '1', '--prices', prices], { cwd });
    expect(priced.code, priced.stderr).not.toBe(2);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('a resume by id without --cost-cap keeps the cap and the limits the run was started with; a typed cap wins and is kept', async () => {
    let inFlight = 0;
    let most = 0;
    const server = await startOpenAICompatibleServer({
      reply: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise(resolve => setTimeout(resolve, 30));
        inFlight--;
        return completion('Aetópaigh', { prompt_tokens: 100, completion_tokens: 100 });
      },
    });
    servers.push(server);
    const cwd = workdir();
    const prices = join(cwd, 'prices.json');
    // $0.01 per call of 100 + 100 tokens at $50/M both ways; 10 trials
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-11-29', models: { 'openai:tutor-1': { input: 50, output: 50 } } }));
    const capped = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '2', '--prices', prices, '--base-url', server.baseURL,
      '--max-tokens', '100', '--concurrency', '1', '--cost-cap', '0.035'], { cwd });
    expect(capped.code, capped.stderr).toBe(3);
    const runId = capped.stdout.trim();
    const spent = server.requests.length;
    expect(spent).toBe(3);

    // No flag typed now: the stored cap holds (before: the resume ran uncapped and finished all 10).
    const plain = await runCli(['run', '--resume', runId], { cwd });
    expect(plain.code, plain.stderr).toBe(3);
    expect(plain.stderr).toMatch(/cost cap/);
    expect(server.requests.length).toBe(spent);
    expect(plain.stderr).toContain(`resume with: paideia run --resume ${runId} --cost-cap 1 --store`);

    // A typed cap wins, and the run keeps it for the next resume.
    const higher = await runCli(['run', '--resume', runId, '--cost-cap', '0.055'], { cwd });
    expect(higher.code, higher.stderr).toBe(3);
    expect(server.requests.length).toBe(5);
    const again = await runCli(['run', '--resume', runId], { cwd });
    expect(again.code, again.stderr).toBe(3);
    expect(server.requests.length).toBe(5);

    // The stored concurrency of 1 holds too (before: the default of 8).
    const done = await runCli(['run', '--resume', runId, '--cost-cap', '10'], { cwd });
    expect(done.code, done.stderr).toBe(0);
    expect(server.requests.length).toBe(10);
    expect(most).toBe(1);
  }, 60_000);
});

describe('paideia run cost cap without a price', () => {
  it('refuses a cost cap for a model it cannot price (exit 2), before any call', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => completion('x') });
    servers.push(server);
    const r = await runCli(['run', suite, '-m', 'openai:unknown-model-xyz', '--cost-cap', '1', '--base-url', server.baseURL], { cwd: workdir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "--cost-cap": no price for openai:unknown-model-xyz/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('paideia run endpoints', () => {
  it('treats one model name at two endpoints as two models, and a resume goes back to the stored endpoint', async () => {
    const a = await startOpenAICompatibleServer({ reply: () => completion('SERVER_A', { prompt_tokens: 100, completion_tokens: 100 }) });
    const b = await startOpenAICompatibleServer({ reply: () => completion('SERVER_B') });
    servers.push(a, b);
    const cwd = workdir();
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-11-29', models: { 'openai:llama': { input: 50, output: 50 } } }));
    const base = ['run', suite, '-m', 'openai:llama', '--repeats', '2', '--prices', prices, '--concurrency', '1', '--max-tokens', '100'];
    const capped = await runCli([...base, '--base-url', a.baseURL, '--cost-cap', '0.035'], { cwd, env: { OPENAI_BASE_URL: b.baseURL } });
    expect(capped.code, capped.stderr).toBe(3);
    const runA = capped.stdout.trim();
    const calledA = a.requests.length;
    // resume without --base-url: OPENAI_BASE_URL points at B, but the run goes back to A
    const resumed = await runCli(['run', '--resume', runA, '--cost-cap', '10'], { cwd, env: { OPENAI_BASE_URL: b.baseURL } });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(a.requests.length).toBe(10);
    expect(b.requests).toHaveLength(0);
    expect(calledA).toBeLessThan(10);
    // the same command against B is another run, answered by B alone (no cache from A)
    const other = await runCli([...base, '--base-url', b.baseURL], { cwd });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout.trim()).not.toBe(runA);
    expect(b.requests).toHaveLength(10);
  });
});

describe('paideia run with two judges of different families', () => {
  it('stores no endpoint move on a new run; a plain resume and a rescore go back to the judges\' endpoints, also for a run stored with the moves', async () => {
    const verdict = JSON.stringify({ pass: true, reason: 'clear' });
    const tutor = JSON.stringify({ has_error: false, wrong_span: null, correction: null, corrected_sentence: 'x', explanation: 'The verb agrees.' });
    const openai = await startOpenAICompatibleServer({
      reply: req => completion((req.body as { model: string }).model === 'j1' ? verdict : lastUserText(req).startsWith("Learner's sentence") ? tutor : 'Aetópaigh'),
    });
    const anthropic = await startAnthropicServer({ reply: () => ({ body: anthropicMessageBody({ text: verdict }) }) });
    servers.push(openai, anthropic);
    const cwd = workdir();
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: anthropic.origin };
    const first = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '1', '--base-url', openai.baseURL,
      '--judge', 'a=openai:j1', '--judge', 'b=anthropic:j2'], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim();
    expect(first.stderr).not.toContain('moves from');
    expect(first.stderr).toMatch(/explanations \(judges a, b\): [1-9]\d* judged/);
    const db = `sqlite:${join(cwd, '.paideia/paideia.db')}`;
    const store = await openStore(db);
    try {
      expect(await store.listArtifacts(runId, 'endpoint-moves')).toEqual([]);
    } finally {
      await store.close();
    }
    const calls = [openai.requests.length, anthropic.requests.length];
    expect(anthropic.requests.length).toBeGreaterThan(0);

    // Neither environment names the servers now: the run goes back to where it called each judge.
    const elsewhere = { ...env, ANTHROPIC_BASE_URL: await refusedURL(), OPENAI_BASE_URL: await refusedURL('/v1') };
    const resumeAndRescore = async () => {
      const again = await runCli(['run', '--resume', runId, '--retry-errors'], { cwd, env: elsewhere });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('0 trial(s) to run; 9 done and 0 failed before.');
      expect(again.stderr).not.toContain('moves from');
      const rescored = await runCli(['rescore', runId], { cwd, env: elsewhere });
      expect(rescored.code, rescored.stderr).toBe(0);
      // The same counts as the run printed: re-derived from what the judges said, calling nothing.
      const counts = /explanations \(judges a, b\): (.*)/.exec(first.stderr)![1]!;
      expect(rescored.stderr + rescored.stdout).toContain(`rescored 9 trial(s) of ${runId}; explanations re-derived from stored judgments: ${counts}`);
      expect([openai.requests.length, anthropic.requests.length]).toEqual(calls);
    };
    await resumeAndRescore();

    // A run stored before this fix holds a move "from nowhere" per judge: it resumes and rescores alike.
    const old = await openStore(db);
    try {
      await moveEndpoint(old, runId, 'a', undefined, openai.baseURL);
      await moveEndpoint(old, runId, 'b', undefined, anthropic.origin);
    } finally {
      await old.close();
    }
    await resumeAndRescore();
  }, 120_000);
});

describe('paideia run --timeout', () => {
  it('a call that times out names the flag that gives it longer, and a resume with that flag runs the rest', async () => {
    const slow = await startOpenAICompatibleServer({ reply: () => ({ ...completion('Aetópaigh'), delayMs: 300 }) });
    servers.push(slow);
    const cwd = workdir();
    const first = await runCli(['run', suite, '-m', 'openai:slow', '--repeats', '1', '--base-url', slow.baseURL, '--timeout', '100', '--max-attempts', '1'], { cwd });
    expect(first.code, first.stderr).toBe(1);
    const runId = first.stdout.trim();
    const md = await runCli(['report', runId, '--format', 'md', '--out', '-'], { cwd });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(`did not answer within 100 ms (if the model is slow, give paideia run a longer one: --timeout 200).`);
    expect(md.stdout).not.toContain('timeoutMs');
    const longer = await runCli(['run', '--resume', runId, '--retry-errors', '--timeout', '5000'], { cwd });
    expect(longer.code, longer.stderr).toBe(0);
    expect(longer.stderr).toContain(`run ${runId}: 5 done, 0 failed, 0 pending`);
  }, 60_000);
});

describe('paideia run against a model server that is not listening', () => {
  it('stops at once with one message naming the URL (exit 3), and a resume with --base-url runs the rest at a live server', async () => {
    const gone = await startOpenAICompatibleServer({ reply: () => completion('x') });
    const deadURL = gone.baseURL;
    await gone.close();
    const cwd = workdir();
    // default retries (5 attempts with backoff): without the breaker this takes tens of seconds and fails every trial
    const first = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '2', '--base-url', deadURL], { cwd });
    expect(first.code, first.stderr).toBe(3);
    const runId = first.stdout.trim();
    expect(first.stderr).toContain(`stopped: nothing answers at ${deadURL} (ECONNREFUSED)`);
    expect(first.stderr).toContain(`resume with: paideia run --resume ${runId}`);
    expect(first.stderr).not.toMatch(/trial\(s\) failed/);
    const store = await openStore(`sqlite:${join(cwd, '.paideia/paideia.db')}`);
    try {
      const run = await store.getRun(runId);
      expect([run?.status, run?.note]).toEqual(['stopped', `failed to connect: no model server answers at ${deadURL}; resumable`]);
      expect((await store.listTrialStatuses(runId)).size).toBe(0);
    } finally {
      await store.close();
    }

    const live = await startOpenAICompatibleServer({ reply: () => completion('Aetópaigh') });
    servers.push(live);
    const moved = await runCli(['run', '--resume', runId, '--base-url', live.baseURL], { cwd });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout.trim()).toBe(runId);
    expect(moved.stderr).toContain(`openai:tutor-1 moves from ${deadURL} to ${live.baseURL}`);
    expect(live.requests).toHaveLength(10);
    // the run remembers where it went: a plain resume and a rescore call nothing, and every call names its endpoint
    const again = await runCli(['run', '--resume', runId], { cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 trial(s) to run; 10 done and 0 failed before.');
    const rescored = await runCli(['rescore', runId], { cwd });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(rescored.stderr + rescored.stdout).toMatch(/rescored 10 trial/);
    expect(live.requests).toHaveLength(10);
    const after = await openStore(`sqlite:${join(cwd, '.paideia/paideia.db')}`);
    try {
      expect(new Set((await after.listCalls(runId)).map(c => c.endpoint))).toEqual(new Set([live.baseURL]));
    } finally {
      await after.close();
    }
  }, 180_000);
});

describe('paideia run against a model server that goes away mid-run', () => {
  it('stops (exit 3); the trials whose calls spent their retries on it are failed, and the printed hint asks them again', async () => {
    let server: FakeServer | undefined;
    // Answers three calls, then is gone.
    server = await startOpenAICompatibleServer({ reply: (_, i) => {
      if (i === 2) setTimeout(() => void server!.close(), 0);
      return completion('Aetópaigh');
    } });
    const cwd = workdir();
    const first = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '2', '--base-url', server.baseURL, '--concurrency', '1', '--max-attempts', '2'], { cwd });
    expect(first.code, first.stderr).toBe(3);
    const runId = first.stdout.trim();
    const failed = Number(/run \S+: \d+ done, (\d+) failed/.exec(first.stderr)?.[1]);
    expect(failed).toBeGreaterThan(0);
    expect(first.stderr).toContain(`${failed} trial(s) failed before that`);
    const hint = /resume with: (\S.*?) \(or add/.exec(first.stderr)?.[1];
    expect(hint).toBe(`paideia run --resume ${runId} --retry-errors --store sqlite:${join(cwd, '.paideia/paideia.db')}`);
    // The hint, with the server back (here at another address), finishes the run.
    const live = await startOpenAICompatibleServer({ reply: () => completion('Aetópaigh') });
    servers.push(live);
    const resumed = await runCli(['run', '--resume', runId, '--retry-errors', '--base-url', live.baseURL], { cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`run ${runId}: 10 done, 0 failed, 0 pending`);
  }, 120_000);
});

describe('paideia run --endpoint', () => {
  it('moves one model of any provider on resume: an anthropic: model whose server was down runs the rest at a live one, the openai: model stays', async () => {
    const tutor = await startOpenAICompatibleServer({ reply: () => completion('Aetópaigh') });
    servers.push(tutor);
    const deadURL = await refusedURL();
    const cwd = workdir();
    // ANTHROPIC_BASE_URL names a live server that is not the one --endpoint gives: the flag wins
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: tutor.origin };
    const first = await runCli(['run', suite, '-m', 'openai:tutor-1', '-m', 'claude=anthropic:claude-test', '--repeats', '1', '--base-url', tutor.baseURL,
      '--endpoint', `claude=${deadURL}`, '--concurrency', '1'], { cwd, env });
    expect(first.code, first.stderr).toBe(3);
    const runId = first.stdout.trim();
    expect(first.stderr).toContain(`nothing answers at ${deadURL}`);
    expect(first.stderr).toContain('--endpoint ALIAS=URL');

    // --base-url moves openai: models only: the anthropic one goes back to where it was, still dead
    const wrongFlag = await runCli(['run', '--resume', runId, '--base-url', tutor.baseURL], { cwd, env });
    expect(wrongFlag.code, wrongFlag.stderr).toBe(3);
    expect(wrongFlag.stderr).toContain(`nothing answers at ${deadURL}`);

    const live = await startAnthropicServer({ reply: () => ({ body: anthropicMessageBody({ text: 'Aetópaigh', usage: { input_tokens: 10, output_tokens: 2 } }) }) });
    servers.push(live);
    const moved = await runCli(['run', '--resume', runId, '--endpoint', `claude=${live.baseURL}`], { cwd, env });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain(`claude moves from ${deadURL} to ${live.baseURL}`);
    expect(live.requests).toHaveLength(5);
    const tutorCalls = tutor.requests.length;
    expect(tutorCalls).toBe(5);
    // the move is stored: a plain resume calls nothing (ANTHROPIC_BASE_URL is not used)
    const again = await runCli(['run', '--resume', runId], { cwd, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 trial(s) to run; 10 done and 0 failed before.');
    expect([live.requests.length, tutor.requests.length]).toEqual([5, tutorCalls]);
    const store = await openStore(`sqlite:${join(cwd, '.paideia/paideia.db')}`);
    try {
      const aliasOf = new Map((await store.listTrials(runId)).map(t => [t.id, t.modelAlias]));
      const endpoints = new Set((await store.listCalls(runId)).map(c => `${aliasOf.get(c.trialId)} ${c.endpoint}`));
      expect(endpoints).toEqual(new Set([`openai:tutor-1 ${tutor.baseURL}`, `claude ${live.baseURL}`]));
    } finally {
      await store.close();
    }
  }, 120_000);

  it('exits 2 naming --endpoint for an alias the run lacks, a baseline, a malformed flag and a bad URL', async () => {
    const cwd = workdir();
    const base = ['run', suite, '-m', 'openai:tutor-1', '-m', 'baseline:gold', '--repeats', '1', '--base-url', 'http://127.0.0.1:9/v1'];
    const cases: Array<[string, RegExp]> = [
      ['nosuch=http://127.0.0.1:9', /field "--endpoint": no model or judge "nosuch" in this run; its aliases are openai:tutor-1, baseline:gold/],
      ['baseline:gold=http://127.0.0.1:9', /field "--endpoint": baseline:gold is baseline:gold, which is not called over HTTP/],
      ['http://127.0.0.1:9', /field "--endpoint": expected ALIAS=URL/],
      ['openai:tutor-1=not a url', /field "--endpoint": /],
    ];
    for (const [flag, message] of cases) {
      const r = await runCli([...base, '--endpoint', flag], { cwd });
      expect(r.code, `${flag}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // refused before planning: no run is stored
    const db = join(cwd, '.paideia/paideia.db');
    if (existsSync(db)) {
      const store = await openStore(`sqlite:${db}`);
      try {
        expect(await store.listRuns()).toEqual([]);
      } finally {
        await store.close();
      }
    }
    // A --base-url without its scheme is the one thing said: no warning about prices comes first.
    const schemeless = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '1', '--base-url', '127.0.0.1:18081/v1'], { cwd });
    expect(schemeless.code).toBe(2);
    expect(schemeless.stderr).toBe('error: field "--base-url": "127.0.0.1:18081/v1" is not a URL; write the scheme, e.g. http://127.0.0.1:18081/v1\n');
  });
});

describe('paideia run and friends on bad input', () => {
  it('exits 2 with file, line and field when an item lacks an input field its test needs', async () => {
    const cwd = workdir();
    const bad = join(cwd, 'bad.jsonl');
    const lines = readFileSync(suite, 'utf8').trim().split('\n');
    const item = JSON.parse(lines[0]!) as Record<string, unknown>;
    writeFileSync(bad, [lines[1], JSON.stringify({ ...item, input: { foo: 'bar' } })].join('\n'));
    const r = await runCli(['run', bad, '-m', 'baseline:gold'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:2, field "input.lemma": test grammar_forms cannot use this item`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on an empty --tests, a seed that is not a plain whole number and absurd repeats', async () => {
    const cwd = workdir();
    for (const [flags, message] of [
      [['--tests', ''], /field "--tests": name at least one test/],
      [['--seed', '1e3'], /field "--seed": expected a whole number in decimal digits/],
      [['--seed', '99999999999999999999'], /field "--seed": expected a whole number from 0 to/],
      [['--repeats', '1000000000'], /field "--repeats": expected a whole number from 1 to 1000/],
    ] as const) {
      const r = await runCli(['run', suite, '-m', 'baseline:gold', ...flags], { cwd });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('read-only commands refuse a store that does not exist instead of creating an empty one', async () => {
    const cwd = workdir();
    for (const args of [['runs'], ['report', 'run-x'], ['rescore', 'run-x']]) {
      const r = await runCli([...args, '--store', 'sqlite:typo.db'], { cwd });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/field "--store": no store at/);
    }
    expect(existsSync(join(cwd, 'typo.db'))).toBe(false);
  });

  it('refuses to call api.openai.com without a key, before any trial', async () => {
    const r = await runCli(['run', suite, '-m', 'openai:gpt-4.1-mini'], { cwd: workdir(), env: { OPENAI_BASE_URL: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "OPENAI_API_KEY": no API key for https:\/\/api\.openai\.com\/v1/);
  });
});

describe('paideia suites build without sources', () => {
  it('exits 2 when no source folder is there, instead of writing empty suites', async () => {
    const cwd = workdir();
    const r = await runCli(['suites', 'build', '--sources', join(cwd, 'nope'), '--private', join(cwd, 'p'), '--samples', join(cwd, 's')], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "--sources": no items could be built/);
  });
});
