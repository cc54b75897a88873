import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { LOOP_SCENARIO } from '../scenarios/testing/fixtures.js';
import { commandHint, commandPrefix, shellWord } from './hint.js';
import { runCli } from './testing/run-cli.js';
import { runPasted } from './testing/run-pasted.js';

const suite = new URL('./__fixtures__/mini-suite.jsonl', import.meta.url).pathname;
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const ok = (usage = { prompt_tokens: 10, completion_tokens: 5 }) => ({ status: 200, body: openAIChatBody({ text: 'Aetópaigh', model: 'tutor-1', usage }) });

/** The command line a line of stderr tells the user to run, as printed. */
function hintAfter(stderr: string, lead: string): string {
  const line = stderr.split('\n').find(l => l.includes(lead));
  expect(line, `no "${lead}" hint in:\n${stderr}`).toBeDefined();
  const hint = line!.slice(line!.indexOf(lead) + lead.length).trim();
  expect(hint).toMatch(/^(npx )?paideia /);
  return hint;
}

/** A store in a folder with a space and a quote, so a hint that forgets to quote breaks. */
function oddStore(): { cwd: string; elsewhere: string; store: string } {
  const root = mkdtempSync(join(tmpdir(), 'paideia-hint-'));
  const dir = join(root, "my runs 'x'");
  mkdirSync(dir);
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(elsewhere);
  return { cwd: root, elsewhere, store: `sqlite:${join(dir, 'paideia.db')}` };
}

describe('printed hints run as pasted', () => {
  it('the --retry-errors hint after failed trials names the store and retries them (from another folder too)', async () => {
    let healthy = false;
    const server = await startOpenAICompatibleServer({ reply: () => (healthy ? ok() : { status: 400, body: { error: { message: 'bad request' } } }) });
    servers.push(server);
    const { cwd, elsewhere, store } = oddStore();
    const first = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '1', '--base-url', server.baseURL, '--store', store], { cwd });
    expect(first.code, first.stderr).toBe(1);
    const hint = hintAfter(first.stderr, 'retry them with:');
    expect(hint).toContain('--store');
    healthy = true;
    const pasted = await runPasted(hint, { cwd: elsewhere });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout.trim()).toBe(first.stdout.trim());
    expect(pasted.stderr).toMatch(/5 done, 0 failed, 0 pending/);
  });

  it('started through npm (npx paideia, npm run), a hint says npx paideia, which a shell in the checkout runs', async () => {
    let healthy = false;
    const server = await startOpenAICompatibleServer({ reply: () => (healthy ? ok() : { status: 400, body: { error: { message: 'bad request' } } }) });
    servers.push(server);
    const { cwd, store } = oddStore();
    const first = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '1', '--base-url', server.baseURL, '--store', store], { cwd, env: { npm_command: 'exec' } });
    expect(first.code, first.stderr).toBe(1);
    const hint = hintAfter(first.stderr, 'retry them with:');
    expect(hint).toMatch(/^npx paideia run --resume /);
    healthy = true;
    const pasted = await runPasted(hint, { cwd });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stderr).toMatch(/5 done, 0 failed, 0 pending/);
    // typed in a shell (a global install), the same hint names paideia alone
    expect(commandPrefix({})).toEqual(['paideia']);
    expect(commandPrefix({ npm_command: 'run-script' })).toEqual(['npx', 'paideia']);
    // npm 11 says `run` for `npm run demo`: its hints must say npx too (`paideia` is not on the PATH there).
    expect(commandPrefix({ npm_command: 'run' })).toEqual(['npx', 'paideia']);
    // started as `node bin/paideia.js`, where no paideia is on the PATH: the hint starts it the same way
    expect(commandPrefix({}, '/home/ana/paideia/bin/paideia.js')).toEqual(['node', '/home/ana/paideia/bin/paideia.js']);
    // a global install's link, on the PATH, is named alone; a project's link, off the PATH, by its path
    expect(commandPrefix({ PATH: '/usr/bin:/usr/local/bin' }, '/usr/local/bin/paideia')).toEqual(['paideia']);
    expect(commandPrefix({ PATH: '/usr/bin:/usr/local/bin' }, '/srv/lab/node_modules/.bin/paideia')).toEqual(['/srv/lab/node_modules/.bin/paideia']);
  });

  /** A run of the mini suite at 100 + 100 tokens a call and this price per million tokens, stopped by the cap. */
  async function cappedRun(pricePerMillion: number, cap: string) {
    const server = await startOpenAICompatibleServer({ reply: () => ok({ prompt_tokens: 100, completion_tokens: 100 }) });
    servers.push(server);
    const { cwd, store } = oddStore();
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ date: '2026-11-29', models: { 'openai:tutor-1': { input: pricePerMillion, output: pricePerMillion } } }));
    const capped = await runCli(['run', suite, '-m', 'openai:tutor-1', '--repeats', '1', '--prices', prices, '--base-url', server.baseURL,
      '--max-tokens', '100', '--concurrency', '1', '--cost-cap', cap, '--store', store], { cwd });
    expect(capped.code, capped.stderr).toBe(3);
    return { server, cwd, capped };
  }

  it('the resume hint after a cost cap gives a higher cap that lets the run finish', async () => {
    const { server, cwd, capped } = await cappedRun(50, '0.015');
    const pasted = await runPasted(hintAfter(capped.stderr, 'resume with:'), { cwd });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(server.requests).toHaveLength(5);
  });

  it('the resume hint after a cost cap leaves room for the call the cap refused, even when one call costs more than twice the cap and $1', async () => {
    // 100 output tokens reserved at $20,000/M: every call's estimate is over $2, input aside.
    const { server, cwd, capped } = await cappedRun(20_000, '0.5');
    expect(server.requests).toHaveLength(0);
    // Twice the cap, or $1, would be refused again with nothing done (the hint was --cost-cap 1).
    const hint = hintAfter(capped.stderr, 'resume with:');
    expect(Number(/--cost-cap (\S+)/.exec(hint)?.[1])).toBeGreaterThan(2);
    const pasted = await runPasted(hint, { cwd });
    expect(pasted.code, pasted.stderr).toBe(3);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('the "list runs" hint of a report for a missing run lists the runs of the same store', async () => {
    const { cwd, store } = oddStore();
    expect((await runCli(['run', suite, '-m', 'baseline:gold', '--repeats', '1', '--store', store], { cwd })).code).toBe(0);
    const missing = await runCli(['report', 'run-nope', '--store', store], { cwd });
    expect(missing.code).toBe(2);
    const listed = await runPasted(hintAfter(missing.stderr, 'list runs with:'), { cwd });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/run-\w+\s+suite\s+completed\s+baseline:gold/);
  });
});

describe('scenario hints run as pasted', () => {
  it('the retry hint of a scenario run keeps the --model override (and the --base-url it is sent to) that pick the run', async () => {
    let healthy = false;
    const server = await startOpenAICompatibleServer({ reply: () => (healthy ? { status: 200, body: openAIChatBody({ text: 'Yes. <end>' }) } : { status: 400, body: { error: { message: 'bad request' } } }) });
    servers.push(server);
    const { cwd, store } = oddStore();
    const scenario = LOOP_SCENARIO
      .replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', `tutor: { type: openai, model: tutor-model, api_base: ${server.baseURL} }`)
      .replace('learner: { type: openai, model: learner-model, api_base: http://127.0.0.1:9/v1 }', 'learner: { type: baseline, model: script, script: s.json }')
      .replace('judge: { type: openai, model: judge-model, api_base: http://127.0.0.1:9/v1 }', 'judge: { type: baseline, model: script, script: s.json }');
    writeFileSync(join(cwd, 'loop.yaml'), scenario);
    writeFileSync(join(cwd, 's.json'), JSON.stringify({ byRole: { student: ['Because.'], judge: ['<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>'] }, onEnd: 'repeat-last' }));
    // An override replaces the whole endpoint: --base-url says where it goes.
    const first = await runCli(['scenario', 'run', join(cwd, 'loop.yaml'), '-m', 'tutor=openai:other-model', '--base-url', server.baseURL, '--store', store], { cwd });
    expect(first.code, first.stderr).toBe(1);
    const hint = hintAfter(first.stderr, 'retry them with:');
    expect(hint).toContain('tutor=openai:other-model');
    expect(hint).toContain(`--base-url ${server.baseURL}`);
    healthy = true;
    const pasted = await runPasted(hint, { cwd });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout.trim()).toBe(first.stdout.trim());
    expect(server.requests.some(r => (r.body as { model?: string }).model === 'other-model')).toBe(true);
  });
});

describe('planning and resume hints of suites and scenarios alike', () => {
  const scripted = (server: FakeServer) => LOOP_SCENARIO
    .replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', `tutor: { type: openai, model: tutor-model, api_base: ${server.baseURL} }`)
    .replace('learner: { type: openai, model: learner-model, api_base: http://127.0.0.1:9/v1 }', 'learner: { type: baseline, model: script, script: s.json }')
    .replace('judge: { type: openai, model: judge-model, api_base: http://127.0.0.1:9/v1 }', 'judge: { type: baseline, model: script, script: s.json }');
  const script = JSON.stringify({ byRole: { student: ['Because.'], judge: ['<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>'] }, onEnd: 'repeat-last' });

  it('a scenario run started with a relative file prints a retry hint that works pasted in another folder, as a suite run\'s does', async () => {
    let healthy = false;
    const server = await startOpenAICompatibleServer({ reply: () => (healthy ? { status: 200, body: openAIChatBody({ text: 'Yes. <end>' }) } : { status: 400, body: { error: { message: 'bad request' } } }) });
    servers.push(server);
    const { cwd, elsewhere, store } = oddStore();
    writeFileSync(join(cwd, 'loop.yaml'), scripted(server));
    writeFileSync(join(cwd, 's.json'), script);
    const first = await runCli(['scenario', 'run', 'loop.yaml', '--store', store], { cwd });
    expect(first.code, first.stderr).toBe(1);
    const hint = hintAfter(first.stderr, 'retry them with:');
    expect(hint).toContain(join(cwd, 'loop.yaml'));
    healthy = true;
    const pasted = await runPasted(hint, { cwd: elsewhere });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout.trim()).toBe(first.stdout.trim());
  });

  it('scenario --plan-only names the file workers need by its absolute path, and its worker hint runs the run from another folder', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'Yes. <end>' }) }) });
    servers.push(server);
    const { cwd, elsewhere, store } = oddStore();
    writeFileSync(join(cwd, 'loop.yaml'), scripted(server));
    writeFileSync(join(cwd, 's.json'), script);
    const planned = await runCli(['scenario', 'run', 'loop.yaml', '--plan-only', '--store', store], { cwd });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain(`has ${join(cwd, 'loop.yaml')} at the same path`);
    const worked = await runPasted(hintAfter(planned.stderr, 'run its dialogues and judgments with:').replace(/ \(as many.*$/, ''), { cwd: elsewhere });
    expect(worked.code, worked.stderr).toBe(0);
    expect(worked.stderr).toMatch(/this worker finished 8 trial\(s\), 0 failed/);
  });

  it('run --resume of a scenario run stored before runs kept their config names the command that made it, with the store; pasted, it resumes', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'Yes. <end>' }) }) });
    servers.push(server);
    const { cwd, elsewhere, store } = oddStore();
    writeFileSync(join(cwd, 'loop.yaml'), scripted(server));
    writeFileSync(join(cwd, 's.json'), script);
    const made = await runCli(['scenario', 'run', 'loop.yaml', '--store', store], { cwd });
    expect(made.code, made.stderr).toBe(0);
    // As a store written before runs kept the config they continue from.
    const db = new Database(store.slice('sqlite:'.length));
    db.prepare("DELETE FROM artifacts WHERE kind = 'worker'").run();
    db.close();
    const refused = await runCli(['run', '--resume', made.stdout.trim(), '--store', store], { cwd: elsewhere });
    expect(refused.code).toBe(2);
    const hint = hintAfter(refused.stderr, 'resume it with the command that made it:');
    expect(hint).toMatch(/, with the -m flags it was made with$/);
    const pasted = await runPasted(hint.replace(/, with the -m flags it was made with$/, ''), { cwd: elsewhere });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout.trim()).toBe(made.stdout.trim());
  });

  it('the hints of scenario report and import (list runs, report a suite run, export first) name the store and work pasted elsewhere', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'Yes. <end>' }) }) });
    servers.push(server);
    const { cwd, elsewhere, store } = oddStore();
    writeFileSync(join(cwd, 'loop.yaml'), scripted(server));
    writeFileSync(join(cwd, 's.json'), script);
    const scenarioRun = (await runCli(['scenario', 'run', 'loop.yaml', '--store', store], { cwd })).stdout.trim();
    const suiteRun = (await runCli(['run', suite, '-m', 'baseline:gold', '--repeats', '1', '--store', store], { cwd })).stdout.trim();
    const missing = await runCli(['scenario', 'report', 'scn-nope', '--store', store], { cwd });
    expect(missing.code).toBe(2);
    const listed = await runPasted(hintAfter(missing.stderr, 'list runs with:'), { cwd: elsewhere });
    expect([listed.code, listed.stdout], listed.stderr).toEqual([0, expect.stringContaining(scenarioRun)]);
    // validity analyze says it in the same words ("list runs with:"), so one lead finds every such hint.
    const noStudy = await runCli(['validity', 'analyze', '--run', 'run-nope', '--store', store], { cwd });
    expect(noStudy.code).toBe(2);
    expect((await runPasted(hintAfter(noStudy.stderr, 'list runs with:'), { cwd: elsewhere })).stdout).toContain(suiteRun);
    const notScenario = await runCli(['scenario', 'report', suiteRun, '--store', store], { cwd });
    expect(notScenario.code).toBe(2);
    const reported = await runPasted(hintAfter(notScenario.stderr, 'report it with:'), { cwd: elsewhere });
    expect([reported.code, reported.stdout], reported.stderr).toEqual([0, expect.stringContaining(suiteRun)]);
    writeFileSync(join(cwd, 'scored.csv'), 'id,clarity\n');
    const unexported = await runCli(['scenario', 'import', scenarioRun, '--file', 'scored.csv', '--rater', 'anna', '--store', store], { cwd });
    expect(unexported.code).toBe(2);
    const exported = await runPasted(hintAfter(unexported.stderr, 'export one first (').replace(/\), or pass --key.*$/, ''), { cwd: elsewhere });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.trim()).toBe('blind.csv');
    expect(existsSync(join(elsewhere, 'blind.csv'))).toBe(true);
  });

  it('a worker with nothing to do prints a plan hint that works pasted in any folder', async () => {
    const { elsewhere, store } = oddStore();
    const idle = await runCli(['worker', '--store', store], { cwd: elsewhere });
    expect(idle.code, idle.stderr).toBe(0);
    const planned = await runPasted(hintAfter(idle.stderr, 'plan one with:'), { cwd: elsewhere });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain('planned; run its trials with:');
  });

  it('the demo\'s next steps say paideia or npx paideia as the other hints do, and name the demo\'s store', async () => {
    const { cwd, store } = oddStore();
    const demo = await runCli(['demo', '--store', store], { cwd });
    expect(demo.code, demo.stderr).toBe(0);
    const next = demo.stdout.split('\n').filter(l => l.includes('--model openai:gpt-4.1-mini'));
    expect(next).toHaveLength(1);
    expect(next[0]).toMatch(/^ {2}paideia run \S+data\/samples --model openai:gpt-4.1-mini --model baseline:gold --cost-cap 1 --store /);
    expect(next[0]).toContain(shellWord(store));
  }, 120_000);
});

describe('commandHint', () => {
  it('quotes only what a shell would split or expand, and a quote inside survives the shell', async () => {
    expect(shellWord('sqlite:/tmp/a.db')).toBe('sqlite:/tmp/a.db');
    const store = "sqlite:/tmp/my runs 'x'/p.db";
    const echoed = await runPasted(commandHint(['run', '--resume', 'run-1'], store, {}).replace(/^paideia/, 'printf "%s\\n"'), { cwd: tmpdir() });
    expect(echoed.stdout.split('\n').slice(0, -1)).toEqual(['run', '--resume', 'run-1', '--store', store]);
  });
});
