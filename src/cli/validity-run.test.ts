import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastUserText, openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import { kendallTauB } from '../stats/correlation/index.js';
import { loadItems } from '../suites/load.js';
import { runCli } from './testing/run-cli.js';
import { runPasted } from './testing/run-pasted.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});
const workdir = () => mkdtempSync(join(tmpdir(), 'paideia-validity-run-'));
const tutorItems = new URL('../../data/samples/english/tutor_accuracy.jsonl', import.meta.url).pathname;

const STUDY = `name: cap
observations:
  - { id: o1, text: "Teacher: What do you notice?" }
  - { id: o2, text: "Teacher: Say more about that." }
  - { id: o3, text: "Teacher: Open your books." }
  - { id: o4, text: "Teacher: Why do you think so?" }
items:
  - id: uptake
    construct: builds on what the student said
    scale: { min: 1, max: 3 }
raters: { r: "openai:rater" }
params: { max_tokens: 300 }
`;

describe('paideia validity run', () => {
  it('stops at the cost cap (exit 3) with a hint that, pasted, finishes the study without asking again', async () => {
    const server = await startOpenAICompatibleServer(() => ({ status: 200, body: openAIChatBody({ text: 'Rating: 2', usage: { prompt_tokens: 50, completion_tokens: 10 } }) }));
    servers.push(server);
    const cwd = workdir();
    writeFileSync(join(cwd, 'study.yaml'), STUDY);
    writeFileSync(join(cwd, 'prices.json'), JSON.stringify({ source: 'test', date: '2026-12-01', models: { 'openai:rater': { input: 1, output: 2 } } }));
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' };
    const first = await runCli(['validity', 'run', 'study.yaml', '--prices', 'prices.json', '--cost-cap', '0.001', '--concurrency', '1', '--store', 'sqlite:s.db'], { cwd, env });
    expect(first.code, first.stderr).toBe(3);
    const asked = server.requests.length;
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThan(12);
    const hint = /resume with: (.*)/.exec(first.stderr)![1]!;
    expect(hint).toContain('--cost-cap 1');
    // study.yaml and prices.json were given relative: the hint names them so that it runs from any folder
    const resumed = await runPasted(hint, { cwd: mkdtempSync(join(tmpdir(), 'paideia-validity-elsewhere-')), env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trim()).toBe(first.stdout.trim());
    // 4 observations x 1 item x 3 families x 1 rater: each cell asked exactly once over both sessions.
    expect(server.requests.length).toBe(12);
    expect(resumed.stderr).toMatch(/12 rating\(s\) read, 0 unscored/);
    const runs = await runCli(['runs', '--format', 'json', '--store', 'sqlite:s.db'], { cwd });
    expect(runs.stdout).toContain(first.stdout.trim());
  }, 60_000);

  it('stopped by a server that went away, resumes in a new shell (no OPENAI_BASE_URL) at the address it called: by id, and by the printed hint, which asks the failed cells again', async () => {
    let server: FakeServer | undefined;
    // Answers three ratings, then is gone.
    server = await startOpenAICompatibleServer({ reply: (_, i) => {
      if (i === 2) setTimeout(() => void server!.close(), 0);
      return { status: 200, body: openAIChatBody({ text: 'Rating: 2' }) };
    } });
    const cwd = workdir();
    writeFileSync(join(cwd, 'study.yaml'), STUDY);
    const first = await runCli(['validity', 'run', 'study.yaml', '--concurrency', '1', '--max-attempts', '2', '--store', 'sqlite:s.db'], { cwd, env: { OPENAI_BASE_URL: server.baseURL } });
    expect(first.code, first.stderr).toBe(3);
    const runId = first.stdout.trim();
    const [, done, failed] = (/(\d+) cell\(s\) done, (\d+) failed/.exec(first.stderr) ?? []).map(Number) as [number, number, number];
    expect(failed).toBeGreaterThan(0);
    const hint = /resume with: (.*)/.exec(first.stderr)![1]!;
    expect(hint).toContain(`--base-url ${server.baseURL}`);
    expect(hint).toContain('--retry-errors');
    // The server is back where it was; this shell has no OPENAI_BASE_URL.
    const back = await startOpenAICompatibleServer({ port: Number(new URL(server.origin).port), reply: () => ({ status: 200, body: openAIChatBody({ text: 'Rating: 3' }) }) });
    servers.push(back);
    const byId = await runCli(['run', '--resume', runId, '--store', 'sqlite:s.db'], { cwd, env: {} });
    expect(byId.code, byId.stderr).toBe(1);
    expect(byId.stderr).toContain(`${12 - failed} done, ${failed} failed, 0 pending`);
    const pasted = await runPasted(hint, { cwd: mkdtempSync(join(tmpdir(), 'paideia-validity-elsewhere-')), env: {} });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout.trim()).toBe(runId);
    expect(pasted.stderr).toMatch(/12 cell\(s\) done, 0 failed, 0 pending; 12 rating\(s\) read, 0 unscored/);
    // Each cell not done asked once more: the pending ones by id, the failed ones by the hint.
    expect(back.requests.length).toBe(12 - done);
  }, 120_000);

  it('a rater call that times out is stored naming validity run --timeout, and a run with a longer one rates the rest', async () => {
    const server = await startOpenAICompatibleServer(() => ({ body: openAIChatBody({ text: 'Rating: 2' }), delayMs: 300 }));
    servers.push(server);
    const cwd = workdir();
    writeFileSync(join(cwd, 'study.yaml'), STUDY);
    const env = { OPENAI_BASE_URL: server.baseURL };
    const first = await runCli(['validity', 'run', 'study.yaml', '--timeout', '100', '--max-attempts', '1', '--store', 'sqlite:s.db'], { cwd, env });
    expect(first.code, first.stderr).toBe(1);
    const store = await openStore(`sqlite:${join(cwd, 's.db')}`);
    try {
      const calls = await store.listCalls(first.stdout.trim());
      const errors = new Set(calls.map(c => c.error?.message));
      expect(errors).toEqual(new Set([`OpenAI-compatible API at ${server.baseURL} did not answer within 100 ms (if the model is slow, give paideia validity run a longer one: --timeout 200).`]));
      // Each rating left unscored names the failed call it stands for.
      const judgments = await store.listJudgments(first.stdout.trim());
      expect(judgments.length).toBe(calls.length);
      for (const j of judgments) expect([j.value, calls.find(c => c.seq === j.callSeq)?.trialId]).toEqual([null, j.trialId]);
    } finally {
      await store.close();
    }
    const longer = await runCli(['validity', 'run', 'study.yaml', '--retry-errors', '--timeout', '5000', '--store', 'sqlite:s.db'], { cwd, env });
    expect(longer.code, longer.stderr).toBe(0);
    expect(longer.stderr).toMatch(/12 rating\(s\) read, 0 unscored/);
  }, 60_000);

  it('exits 2 on a bad study file, naming file, line and field', async () => {
    const cwd = workdir();
    writeFileSync(join(cwd, 'bad.yaml'), STUDY.replace('min: 1, max: 3', 'min: 3, max: 1').replace('raters:', 'raterz:'));
    const r = await runCli(['validity', 'run', 'bad.yaml', '--store', 'sqlite:s.db'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:11.*raterz.*did you mean "raters"/);
    expect(r.stderr).toMatch(/bad\.yaml:10.*items\.0\.scale.*max must be above min/);
  });
});

describe('judges of a suite run against experts', () => {
  it('report --experts shows the explanation judges\' alignment, from a template filled in', async () => {
    const items = loadItems([tutorItems]).map(v => v.item);
    const explanationOf = (i: number) => `Explanation number ${i}.`;
    const server = await startOpenAICompatibleServer(req => {
      const model = (req.body as { model: string }).model;
      const text = lastUserText(req);
      if (model !== 'tutor') {
        const k = Number(/Explanation number (\d+)\./.exec(text)?.[1]);
        const pass = model === 'judge-x' ? k % 2 === 0 : k % 3 !== 0;
        return { status: 200, body: openAIChatBody({ text: JSON.stringify({ pass, reason: 'ok' }) }) };
      }
      const i = items.findIndex(it => text.includes((it.input as { sentence: string }).sentence));
      return { status: 200, body: openAIChatBody({ text: JSON.stringify({ ...(items[i]!.answer as object), explanation: explanationOf(i) }) }) };
    });
    servers.push(server);
    const cwd = workdir();
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' };
    // baseline:gold answers with no explanation: its trials' judgments are unscored, and the template leaves them out.
    const run = await runCli(['run', tutorItems, '-m', 't=openai:tutor', '-m', 'baseline:gold', '--repeats', '1', '--judge', 'ja=openai:judge-x', '--judge', 'jb=openai:claude-y', '--store', 'sqlite:s.db'], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    const runId = run.stdout.trim();
    const plain = await runCli(['report', runId, '--format', 'md', '--out', '-', '--store', 'sqlite:s.db'], { cwd });
    const hint = /write a blank expert file with (paideia validity template [^,]*), fill in/.exec(plain.stdout)![1]!;
    expect((await runPasted(hint, { cwd })).code).toBe(0);
    // The expert passes explanations whose number is even or a multiple of 5.
    const rows = readFileSync(join(cwd, 'experts.csv'), 'utf8').trim().split(/\r\n/);
    expect(rows).toHaveLength(1 + items.length);
    const expertOf = (k: number) => (k % 2 === 0 || k % 5 === 0 ? 1 : 0);
    writeFileSync(join(cwd, 'experts.csv'), rows.map((row, n) => {
      if (n === 0) return row;
      const k = Number(/Explanation number (\d+)\./.exec(row)![1]);
      return row.replace(',expert-1,,', `,expert-1,${expertOf(k)},`);
    }).join('\n'));
    // The report names the full analysis of the same files as a command that runs pasted.
    const withExperts = await runCli(['report', runId, '--experts', 'experts.csv', '--format', 'md', '--out', '-', '--store', 'sqlite:s.db'], { cwd });
    const analyze = /The full analysis: (paideia validity analyze .*)$/m.exec(withExperts.stdout)?.[1];
    expect(analyze).toMatch(/--experts \/\S+\/experts\.csv --store sqlite:\//);
    const pasted = await runPasted(`${analyze!} --format json`, { cwd: workdir() });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(JSON.parse(pasted.stdout)).toHaveProperty('alignment');
    const r = await runCli(['report', runId, '--experts', 'experts.csv', '--format', 'json', '--out', '-', '--store', 'sqlite:s.db'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const v = (JSON.parse(r.stdout) as { judgeValidity: { experts: string; alignment: Array<{ rater: string; item: string; n: number; tauExperts: { tau: number } }> } }).judgeValidity;
    expect(v.experts).toBe('experts.csv');
    const ks = items.map((_, i) => i);
    for (const [rater, pass] of [['ja', (k: number) => k % 2 === 0], ['jb', (k: number) => k % 3 !== 0]] as const) {
      const row = v.alignment.find(a => a.rater === rater)!;
      expect([row.item, row.n]).toEqual(['explanation-verdict', items.length]);
      expect(row.tauExperts.tau).toBeCloseTo(kendallTauB(ks.map(k => (pass(k) ? 1 : 0)), ks.map(expertOf)).tau, 12);
    }
  }, 90_000);
});
