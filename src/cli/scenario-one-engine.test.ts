import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './testing/run-cli.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const scenario = new URL('../../scenarios/socratic-problem-solving.yaml', import.meta.url).pathname;
const verdict = '<json>{"withholds_answer": true, "questioning": 4, "adaptivity": 3, "student_reasoning": 4, "encouragement": {"score": 5, "reason": "kind"}}</json>';

/** One local server for every role: judges answer with the verdict, the others with a question. */
async function judgingServer(): Promise<FakeServer> {
  const server = await startOpenAICompatibleServer({
    reply: req => {
      const model = (req.body as { model: string }).model;
      return { status: 200, body: openAIChatBody({ text: model.startsWith('judge') ? verdict : 'what do you notice next?' }) };
    },
  });
  servers.push(server);
  return server;
}

/** Trials the run holds in the store of `cwd` (p.db). */
function trialCount(cwd: string, runId: string): number {
  const db = new Database(join(cwd, 'p.db'), { readonly: true });
  const n = (db.prepare('SELECT COUNT(*) AS n FROM trials WHERE run_id = ?').get(runId) as { n: number }).n;
  db.close();
  return n;
}

describe('a scenario run is one engine run', () => {
  it('stores one call record per request the server got (judges included); a re-run, rescore and report ask nothing', async () => {
    // Tutor, learner and both judges are served by one local server.
    const server = await startOpenAICompatibleServer({
      reply: req => {
        const model = (req.body as { model: string }).model;
        const text = model.startsWith('judge') ? verdict : `${model} says: what do you notice next?`;
        return { status: 200, body: openAIChatBody({ text, usage: { prompt_tokens: 20, completion_tokens: 8 } }) };
      },
    });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-one-engine-'));
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const args = ['scenario', 'run', scenario, '--model', 'teacher=openai:tutor', '--model', 'student=openai:learner',
      '--model', 'judge_a=openai:judge-a', '--model', 'judge_b=openai:judge-b', '--store', store];
    const first = await runCli(args, { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim().split('\n').at(-1)!;
    // None of these models has a price: the closing line says their cost is unknown, never a plain $0.
    expect(first.stderr).toMatch(/; spent \$0\.0000 plus an unknown amount for teacher, student, judge_a, judge_b \(no price\) \(store /);

    const db = new Database(join(cwd, 'p.db'), { readonly: true });
    const calls = db.prepare('SELECT COUNT(*) AS n FROM calls WHERE run_id = ?').get(runId) as { n: number };
    const judgeCalls = db.prepare(`SELECT COUNT(*) AS n FROM calls WHERE run_id = ? AND json_extract(request, '$.context.role') = 'judge'`).get(runId) as { n: number };
    const judgments = db.prepare('SELECT COUNT(*) AS n FROM judgments WHERE run_id = ?').get(runId) as { n: number };
    db.close();
    const judgeRequests = server.requests.filter(r => (r.body as { model: string }).model.startsWith('judge')).length;
    expect(calls.n).toBe(server.requests.length);
    // 12 dialogues x 2 judges x 2 repeats, each one request and one stored call and Judgment.
    expect(judgeRequests).toBe(48);
    expect(judgeCalls.n).toBe(48);
    expect(judgments.n).toBe(48);

    const before = server.requests.length;
    expect((await runCli(args, { cwd, env })).code).toBe(0);
    const rescored = await runCli(['rescore', runId, '--store', store], { cwd, env });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(rescored.stdout).toMatch(/rescored 48 judgment\(s\) of scn-[0-9a-f]+ from stored judge calls; 12 dialogue\(s\) with a panel score/);
    const report = await runCli(['report', runId, '--store', store, '--format', 'md', '--out', 'r.md'], { cwd, env });
    expect(report.code, report.stderr).toBe(0);
    expect(server.requests.length).toBe(before);
    // The scenario report, not an empty suite report.
    const md = readFileSync(join(cwd, 'r.md'), 'utf8');
    expect(md).toContain('socratic');
    expect(md).toMatch(/Personalisation/);
  });

  it('rescores a run whose endpoint came from --base-url, not the environment, and adds no trial to it', async () => {
    const server = await judgingServer();
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-one-engine-'));
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const args = ['scenario', 'run', scenario, '--model', 'teacher=openai:tutor', '--model', 'student=openai:learner',
      '--model', 'judge_a=openai:judge-a', '--model', 'judge_b=openai:judge-b', '--base-url', server.baseURL, '--store', store];
    const first = await runCli(args, { cwd });
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim().split('\n').at(-1)!;
    const trials = () => trialCount(cwd, runId);
    const planned = trials();
    const before = server.requests.length;
    const rescored = await runCli(['rescore', runId, '--store', store], { cwd });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(rescored.stdout).toMatch(/rescored 48 judgment\(s\) of scn-[0-9a-f]+ from stored judge calls; 12 dialogue\(s\) with a panel score$/m);
    expect(trials()).toBe(planned);
    expect(server.requests.length).toBe(before);
  });

  it('names the run\'s own --model and --base-url in the command that makes the judgments a changed judge prompt needs', async () => {
    const server = await judgingServer();
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-one-engine-'));
    cpSync(join(dirname(scenario), 'scripts'), join(cwd, 'scripts'), { recursive: true });
    const file = join(cwd, 's.yaml');
    writeFileSync(file, readFileSync(scenario, 'utf8'));
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const first = await runCli(['scenario', 'run', file, '--model', 'teacher=openai:tutor', '--model', 'judge_a=openai:judge-a',
      '--base-url', server.baseURL, '--store', store], { cwd });
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim().split('\n').at(-1)!;
    writeFileSync(file, readFileSync(file, 'utf8').replace('You are an expert in mathematics education', 'You are a strict expert in mathematics education'));
    const rescored = await runCli(['rescore', runId, '--store', store], { cwd });
    expect(rescored.code, rescored.stderr).toBe(0);
    const hint = /make them with paideia (.+)$/m.exec(rescored.stdout)?.[1];
    expect(hint, rescored.stdout).toBeDefined();
    const before = server.requests.length;
    const pasted = await runCli(hint!.split(' '), { cwd });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout.trim().split('\n').at(-1)).toBe(runId);
    // Only judge_a's new judgments: 12 dialogues x 2 repeats; judge_b is the file's script.
    expect(server.requests.length - before).toBe(24);
  });

  it('rescores the shipped scripted scenario, whose models read their scripts from the file', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-one-engine-'));
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const first = await runCli(['scenario', 'run', scenario, '--store', store], { cwd });
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim().split('\n').at(-1)!;
    const rescored = await runCli(['rescore', runId, '--store', store], { cwd });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(rescored.stdout).toMatch(/rescored 48 judgment\(s\) of scn-[0-9a-f]+ from stored judge calls; 12 dialogue\(s\) with a panel score$/m);
  });

  it('rescores with the file\'s key and endpoint variables unset; refuses a file that now describes another run, writing nothing', async () => {
    const server = await judgingServer();
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-one-engine-'));
    cpSync(join(dirname(scenario), 'scripts'), join(cwd, 'scripts'), { recursive: true });
    const file = join(cwd, 's.yaml');
    const text = readFileSync(scenario, 'utf8').replace(/ {2}judge_a:\n {4}type: baseline\n {4}model: script\n {4}script: [^\n]+\n/,
      '  judge_a:\n    type: openai\n    model: judge-a\n    api_base: ${QA_BASE}/v1\n    api_key: ${QA_KEY}\n');
    expect(text).toContain('${QA_KEY}');
    writeFileSync(file, text);
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const first = await runCli(['scenario', 'run', file, '--store', store], { cwd, env: { QA_BASE: server.baseURL.replace(/\/v1$/, ''), QA_KEY: 'k' } });
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim().split('\n').at(-1)!;
    const before = server.requests.length;
    expect(before).toBeGreaterThan(0);
    // Nothing is called, so no key and no endpoint variable is needed.
    const rescored = await runCli(['rescore', runId, '--store', store], { cwd, env: {} });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(rescored.stdout).toMatch(/rescored 48 judgment\(s\) of scn-[0-9a-f]+ from stored judge calls; 12 dialogue\(s\) with a panel score$/m);
    // The teacher's prompt changed: the file names another run, which `scenario run` would start;
    // rescore refuses it and writes nothing (no judge of the other file joins this run).
    const trials = () => trialCount(cwd, runId);
    const planned = trials();
    writeFileSync(file, text.replace('You are', 'You are, today,'));
    const changed = await runCli(['rescore', runId, '--store', store], { cwd, env: {} });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/field "--scenario": \S+s\.yaml now describes another run than scn-[0-9a-f]+: its dialogues, tasks or models differ.*put back the file it was made with/);
    // Another scenario altogether: the same refusal, not a crash.
    const other = await runCli(['rescore', runId, '--store', store, '--scenario', new URL('../../scenarios/knowledge-explanation.yaml', import.meta.url).pathname], { cwd, env: {} });
    expect([other.code, other.stderr]).toEqual([2, expect.stringMatching(/knowledge-explanation\.yaml (does not fit run|now describes another run than) scn-/)]);
    const missing = await runCli(['rescore', runId, '--store', store, '--scenario', join(cwd, 'nowhere.yaml')], { cwd, env: {} });
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining(`${join(cwd, 'nowhere.yaml')} is not there; name the scenario file run ${runId} was made with`)]);
    expect(trials()).toBe(planned);
    expect(server.requests.length).toBe(before);
  });

  it('names --scenario when the file given cannot bind the run\'s models, and counts no panel without a fitting judgment', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'no verdict here' }) }) });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-one-engine-'));
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const first = await runCli(['scenario', 'run', scenario, '--model', 'teacher=openai:tutor', '--model', 'judge_a=openai:judge-a', '--model', 'judge_b=openai:judge-b',
      '--base-url', server.baseURL, '--store', store], { cwd });
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim().split('\n').at(-1)!;
    const rescored = await runCli(['rescore', runId, '--store', store], { cwd });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(rescored.stdout).toMatch(/from stored judge calls; 0 dialogue\(s\) with a panel score/);
    const other = new URL('../../scenarios/knowledge-explanation.yaml', import.meta.url).pathname;
    const wrong = await runCli(['rescore', runId, '--store', store, '--scenario', other], { cwd });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/field "--scenario": .*knowledge-explanation\.yaml does not fit run scn-[0-9a-f]+, whose models it cannot bind: the scenario has no model "judge_a".*; name the run's own scenario file with --scenario FILE/);
    expect(wrong.stderr).not.toMatch(/write --model/);
  });
});
