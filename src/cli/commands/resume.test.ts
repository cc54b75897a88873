import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadShippedUnit, startStudyServer } from '../../learning/testing/study-server.js';
import { openAIChatBody, refusedURL, startOpenAICompatibleServer, type FakeServer } from '../../providers/testing/fake-servers.js';
import { grammarSuiteFile } from '../testing/grammar-suite.js';
import { runCli } from '../testing/run-cli.js';
import { runPasted } from '../testing/run-pasted.js';

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const shipped = new URL('../../../scenarios/socratic-problem-solving.yaml', import.meta.url).pathname;

/** A folder holding the scenario (run by a relative path), a price table, and a folder elsewhere to resume from. */
function workspace(): { cwd: string; elsewhere: string; store: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'paideia-resume-'));
  cpSync(shipped, join(cwd, 'socratic.yaml'));
  // Its judges are scripted: their scripts sit beside it.
  cpSync(new URL('../../../scenarios/scripts', import.meta.url).pathname, join(cwd, 'scripts'), { recursive: true });
  writeFileSync(join(cwd, 'prices.json'), JSON.stringify({ source: 'test', date: '2026-12-03', models: { 'openai:tutor': { input: 50, output: 50 }, 'openai:learner': { input: 50, output: 50 }, 'baseline:*': { input: 0, output: 0 } } }));
  const elsewhere = join(cwd, 'elsewhere');
  mkdirSync(elsewhere);
  return { cwd, elsewhere, store: `sqlite:${join(cwd, 'p.db')}` };
}

const hintAfter = (stderr: string, lead: string): string => {
  const line = stderr.split('\n').find(l => l.includes(lead));
  expect(line, `no "${lead}" in:\n${stderr}`).toBeDefined();
  return line!.slice(line!.indexOf(lead) + lead.length).trim();
};

describe('paideia run --resume ID continues a run of any kind from the config it keeps', () => {
  it('a scenario run stopped by its cost cap, resumed by id from another folder, asks only for what is not stored', async () => {
    const server = await startOpenAICompatibleServer({
      reply: () => ({ status: 200, body: openAIChatBody({ text: 'What do you notice?', usage: { prompt_tokens: 20, completion_tokens: 8 } }) }),
    });
    servers.push(server);
    const { cwd, elsewhere, store } = workspace();
    // A $0.30 cap lets about one turn run at a time (each reserved at its worst case, ~$0.21).
    const capped = await runCli(['scenario', 'run', 'socratic.yaml', '-m', 'teacher=openai:tutor', '-m', 'student=openai:learner',
      '--prices', 'prices.json', '--base-url', server.baseURL, '--cost-cap', '0.3', '--store', store], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(capped.code, capped.stderr).toBe(3);
    const runId = capped.stdout.trim().split('\n').at(-1)!;
    expect(runId).toMatch(/^scn-/);
    const stored = server.requests.length;

    // By id, from a folder where the relative scenario path means nothing; the same cap stops it again.
    const again = await runCli(['run', '--resume', runId, '--cost-cap', '0.3', '--store', store], { cwd: elsewhere, env: { OPENAI_API_KEY: 'k' } });
    expect(again.code, again.stderr).toBe(3);
    expect(again.stdout.trim()).toBe(runId);
    expect(again.stderr).toMatch(/cost cap of \$0\.3/);
    // With --plan-only the raised cap is stored for the run's workers and nothing is called here.
    const before = server.requests.length;
    const forWorkers = await runCli(['run', '--resume', runId, '--cost-cap', '1', '--plan-only', '--store', store], { cwd: elsewhere, env: { OPENAI_API_KEY: 'k' } });
    expect(forWorkers.code, forWorkers.stderr).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(hintAfter(forWorkers.stderr, 'planned; run its dialogues and judgments with:')).toMatch(new RegExp(`^paideia worker --run ${runId} --store `));
    // Its hint, pasted, raises the cap and finishes the run.
    const hint = hintAfter(again.stderr, 'resume with:');
    expect(hint).toMatch(new RegExp(`^paideia run --resume ${runId} --cost-cap 1 --store `));
    const pasted = await runPasted(hint, { cwd: elsewhere, env: { OPENAI_API_KEY: 'k' } });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(stored);
    // Said in dialogues and judgments, as `scenario run` says them (`paideia runs` counts both as trials).
    expect(pasted.stderr).toMatch(new RegExp(`^run ${runId}: \\d+ trial\\(s\\) \\(dialogues and judgments\\) to run; \\d+ done and 0 failed before\\.$`, 'm'));
    expect(pasted.stderr).toMatch(new RegExp(`run ${runId} \\(scenario\\): \\d+ ended, 0 capped, 0 failed, 0 pending dialogue\\(s\\)`));
    const db = new Database(join(cwd, 'p.db'), { readonly: true });
    const served = (db.prepare(`SELECT COUNT(*) AS n FROM calls WHERE run_id = ? AND json_extract(request, '$.context.role') != 'judge'`).get(runId) as { n: number }).n;
    const status = (db.prepare('SELECT status FROM runs WHERE id = ?').get(runId) as { status: string }).status;
    const runs = (db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n;
    db.close();
    // One run, finished, every request the server got a stored call: nothing was asked twice.
    expect(status).toBe('completed');
    expect(runs).toBe(1);
    expect(served).toBe(server.requests.length);
    const report = await runCli(['report', runId, '--store', store, '--format', 'md', '--out', '-'], { cwd: elsewhere });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/socratic/i);
  });

  it('names the flags a stored scenario run does not take, and refuses a run whose scenario file changed since', async () => {
    const server = await startOpenAICompatibleServer({
      reply: () => ({ status: 200, body: openAIChatBody({ text: 'What do you notice?', usage: { prompt_tokens: 20, completion_tokens: 8 } }) }),
    });
    servers.push(server);
    const { cwd, store } = workspace();
    const planned = await runCli(['scenario', 'run', 'socratic.yaml', '-m', 'teacher=openai:tutor', '-m', 'student=openai:learner',
      '--base-url', server.baseURL, '--plan-only', '--store', store], { cwd });
    expect(planned.code, planned.stderr).toBe(0);
    const runId = planned.stdout.trim().split('\n').at(-1)!;
    const file = join(cwd, 'socratic.yaml');
    const original = (await import('node:fs')).readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/^name: .*$/m, 'name: edited-since'));
    const refused = await runCli(['run', '--resume', runId, '--store', store], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`run ${runId} cannot be continued: the scenario .*socratic\\.yaml with these models now describes another run`));
    expect(server.requests.length).toBe(0);
    const db = new Database(join(cwd, 'p.db'), { readonly: true });
    expect((db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n).toBe(1);
    db.close();

    writeFileSync(file, original);
    // --concurrency is a scenario run's setting too (its file's globals.concurrency, for this process).
    const resumed = await runCli(['run', '--resume', runId, '--concurrency', '2', '--max-attempts', '2', '--tests', 'grammar_forms', '--store', store], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/ignoring --tests, --max-attempts\n/);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('a rating study stopped by its cap resumes by id from another folder, with its price table, asking each cell once', async () => {
    const server = await startOpenAICompatibleServer(() => ({ status: 200, body: openAIChatBody({ text: 'Rating: 2', usage: { prompt_tokens: 50, completion_tokens: 10 } }) }));
    servers.push(server);
    const { cwd, elsewhere, store } = workspace();
    writeFileSync(join(cwd, 'study.yaml'), ['name: cap', 'observations:', '  - { id: o1, text: "Teacher: What do you notice?" }',
      '  - { id: o2, text: "Teacher: Open your books." }', 'items:', '  - { id: uptake, construct: builds on what the student said, scale: { min: 1, max: 3 } }',
      'raters: { r: "openai:rater" }', 'params: { max_tokens: 300 }', ''].join('\n'));
    writeFileSync(join(cwd, 'rater-prices.json'), JSON.stringify({ source: 'test', date: '2026-12-03', models: { 'openai:rater': { input: 1, output: 2 } } }));
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' };
    const first = await runCli(['validity', 'run', 'study.yaml', '--prices', 'rater-prices.json', '--cost-cap', '0.001', '--concurrency', '1', '--store', store], { cwd, env });
    expect(first.code, first.stderr).toBe(3);
    const runId = first.stdout.trim();
    expect(server.requests.length).toBeLessThan(6);
    // No worker runs a study: --plan-only is refused before anything is asked.
    const asked = server.requests.length;
    const planOnly = await runCli(['run', '--resume', runId, '--cost-cap', '1', '--plan-only', '--store', store], { cwd: elsewhere, env });
    expect([planOnly.code, server.requests.length], planOnly.stderr).toEqual([2, asked]);
    expect(planOnly.stderr).toContain('--plan-only": a validity run is run by the command that resumes it, not by workers; resume it without --plan-only');
    const resumed = await runCli(['run', '--resume', runId, '--cost-cap', '1', '--store', store], { cwd: elsewhere, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trim()).toBe(runId);
    // 2 observations x 1 item x 3 prompt families x 1 rater, each asked once over both sessions.
    expect(server.requests.length).toBe(6);
  });

  it('a rating study and a learning study resume by id after their --prices file is gone: they price with the table stored with the run', async () => {
    const server = await startStudyServer([loadShippedUnit('udihe-possession')]);
    servers.push(server);
    const rater = await startOpenAICompatibleServer(() => ({ status: 200, body: openAIChatBody({ text: 'Rating: 2', usage: { prompt_tokens: 50, completion_tokens: 10 } }) }));
    servers.push(rater);
    const { cwd, elsewhere, store } = workspace();
    writeFileSync(join(cwd, 'study.yaml'), ['name: gone', 'observations:', '  - { id: o1, text: "Teacher: What do you notice?" }',
      '  - { id: o2, text: "Teacher: Open your books." }', 'items:', '  - { id: uptake, construct: builds on what the student said, scale: { min: 1, max: 3 } }',
      'raters: { r: "openai:rater" }', 'params: { max_tokens: 300 }', ''].join('\n'));
    writeFileSync(join(cwd, 'local-prices.json'), JSON.stringify({ source: 'test', date: '2026-12-03', models: { 'openai:rater': { input: 1, output: 2 }, 'openai:learner-strong': { input: 1, output: 2 }, 'baseline:*': { input: 0, output: 0 } } }));

    const study = await runCli(['validity', 'run', 'study.yaml', '--prices', 'local-prices.json', '--cost-cap', '0.001', '--concurrency', '1', '--store', store],
      { cwd, env: { OPENAI_BASE_URL: rater.baseURL, OPENAI_API_KEY: 'k' } });
    expect(study.code, study.stderr).toBe(3);
    const learning = await runCli(['learning', 'run', '--units', 'udihe-possession', '--generator', 'outline=baseline:outline', '--learner', 'strong=openai:learner-strong',
      '--prices', 'local-prices.json', '--cost-cap', '0', '--store', store], { cwd, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' } });
    expect(learning.code, learning.stderr).toBe(3);
    rmSync(join(cwd, 'local-prices.json'));

    for (const [run, env] of [[study.stdout.trim(), rater], [learning.stdout.trim(), server]] as const) {
      const resumed = await runCli(['run', '--resume', run, '--cost-cap', '1', '--store', store], { cwd: elsewhere, env: { OPENAI_BASE_URL: env.baseURL, OPENAI_API_KEY: 'k' } });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).not.toMatch(/local-prices\.json/);
      expect(resumed.stdout.trim()).toBe(run);
    }
    const db = new Database(join(cwd, 'p.db'), { readonly: true });
    const calls = (run: string) => (db.prepare('SELECT COUNT(*) AS n FROM calls WHERE run_id = ? AND cached = 0 AND endpoint IS NOT NULL').get(run) as { n: number }).n;
    const statuses = db.prepare('SELECT status FROM runs').all() as Array<{ status: string }>;
    const priced = db.prepare(`SELECT COUNT(*) AS n FROM calls WHERE endpoint IS NOT NULL AND cost_usd > 0`).get() as { n: number };
    const all = db.prepare(`SELECT COUNT(*) AS n FROM calls WHERE endpoint IS NOT NULL`).get() as { n: number };
    const study2 = calls(study.stdout.trim());
    const learning2 = calls(learning.stdout.trim());
    db.close();
    // Two runs, both finished; every request either server got is a stored call, priced by the stored table.
    expect(statuses.map(s => s.status)).toEqual(['completed', 'completed']);
    expect(study2).toBe(rater.requests.length);
    expect(study2).toBe(6);
    expect(learning2).toBe(server.requests.length);
    expect(learning2).toBeGreaterThan(0);
    expect(priced.n).toBe(all.n);
  });

  it('refuses --base-url that would move a scenario, study or learning run, naming the flag, before anything is stored', async () => {
    const planned = await startOpenAICompatibleServer(() => ({ status: 200, body: openAIChatBody({ text: 'Rating: 2', usage: { prompt_tokens: 50, completion_tokens: 10 } }) }));
    const other = await startOpenAICompatibleServer(() => ({ status: 200, body: openAIChatBody({ text: 'Rating: 2', usage: { prompt_tokens: 50, completion_tokens: 10 } }) }));
    servers.push(planned, other);
    const { cwd, elsewhere, store } = workspace();
    const env = { OPENAI_API_KEY: 'k' };
    writeFileSync(join(cwd, 'study.yaml'), ['name: move', 'observations:', '  - { id: o1, text: "Teacher: What do you notice?" }',
      'items:', '  - { id: uptake, construct: builds on what the student said, scale: { min: 1, max: 3 } }', 'raters: { r: "openai:learner" }', ''].join('\n'));
    const scenario = await runCli(['scenario', 'run', 'socratic.yaml', '-m', 'teacher=openai:tutor', '-m', 'student=openai:learner',
      '--base-url', planned.baseURL, '--plan-only', '--store', store], { cwd, env });
    const study = await runCli(['validity', 'run', 'study.yaml', '--base-url', planned.baseURL, '--cost-cap', '0', '--prices', 'prices.json', '--store', store], { cwd, env });
    const learning = await runCli(['learning', 'run', '--units', 'udihe-possession', '--generator', 'outline=baseline:outline', '--learner', 'l=openai:learner',
      '--base-url', planned.baseURL, '--cost-cap', '0', '--prices', 'prices.json', '--store', store], { cwd, env });
    expect([scenario.code, study.code, learning.code], scenario.stderr + study.stderr + learning.stderr).toEqual([0, 3, 3]);
    const db = join(cwd, 'p.db');
    const snapshot = () => {
      const d = new Database(db, { readonly: true });
      const rows = ['runs', 'trials', 'calls', 'artifacts'].map(t => JSON.stringify(d.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()));
      d.close();
      return rows;
    };
    const before = snapshot();
    for (const [out, kind] of [[scenario, 'scenario'], [study, 'validity'], [learning, 'learning']] as const) {
      const runId = out.stdout.trim().split('\n').at(-1)!;
      const moved = await runCli(['run', '--resume', runId, '--base-url', other.baseURL, '--store', store], { cwd: elsewhere, env });
      expect(moved.code, moved.stderr).toBe(2);
      expect(moved.stderr).toContain(`field "--base-url": run ${runId} is a ${kind} run planned against ${planned.baseURL}`);
      expect(moved.stderr).toContain('Leave out --base-url to continue it there');
      expect(moved.stderr).not.toMatch(/a file it was planned from has changed/);
    }
    // Nothing was asked and nothing stored: not the moved config either.
    expect(other.requests.length + planned.requests.length).toBe(0);
    expect(snapshot()).toEqual(before);
    // The same URL it was planned against is no move.
    const same = await runCli(['run', '--resume', study.stdout.trim(), '--base-url', planned.baseURL, '--cost-cap', '1', '--store', store], { cwd: elsewhere, env });
    expect(same.code, same.stderr).toBe(0);
    expect(planned.requests.length).toBe(3);
  });

  it('a resume changes the config a planned run keeps only by the flags typed: the planner\'s cap, concurrency and limits stay for its workers', async () => {
    const { cwd, elsewhere, store } = workspace();
    const down = await refusedURL('/v1');
    const kept = (runId: string) => {
      const d = new Database(join(cwd, 'p.db'), { readonly: true });
      const row = d.prepare(`SELECT value FROM artifacts WHERE run_id = ? AND kind = 'worker' AND key = 'config'`).get(runId) as { value: string };
      d.close();
      return JSON.parse(row.value) as Record<string, unknown>;
    };
    const suite = await runCli(['run', grammarSuiteFile(cwd, 'plan', 5), '-m', 'openai:tutor', '--repeats', '1', '--base-url', down, '--prices', 'prices.json',
      '--cost-cap', '0.5', '--concurrency', '2', '--rpm', '600', '--max-attempts', '2', '--plan-only', '--store', store], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(suite.code, suite.stderr).toBe(0);
    const scenario = await runCli(['scenario', 'run', 'socratic.yaml', '-m', 'teacher=openai:tutor', '-m', 'student=openai:learner', '--base-url', down,
      '--prices', 'prices.json', '--cost-cap', '0.5', '--rpm', '600', '--max-in-flight', '3', '--plan-only', '--store', store], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(scenario.code, scenario.stderr).toBe(0);
    const suiteId = suite.stdout.trim();
    const scenarioId = scenario.stdout.trim().split('\n').at(-1)!;
    const planned = { suite: kept(suiteId), scenario: kept(scenarioId) };
    expect(planned.suite).toMatchObject({ costCapUsd: 0.5, concurrency: 2, requestsPerMinute: 600, maxAttempts: 2, baseUrl: down });
    expect(planned.scenario).toMatchObject({ costCapUsd: 0.5, requestsPerMinute: 600, maxInFlight: 3, baseUrl: down });

    // Each resumed with no continuation flag (its server is down: it stops at once, exit 3).
    const bySuite = await runCli(['run', '--resume', suiteId, '--store', store], { cwd: elsewhere, env: { OPENAI_API_KEY: 'k' } });
    const byScenario = await runCli(['scenario', 'run', 'socratic.yaml', '-m', 'teacher=openai:tutor', '-m', 'student=openai:learner', '--base-url', down,
      '--resume', '--store', store], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect([bySuite.code, byScenario.code], bySuite.stderr + byScenario.stderr).toEqual([3, 3]);
    expect(kept(suiteId)).toEqual(planned.suite);
    expect(kept(scenarioId)).toEqual(planned.scenario);

    // A flag typed now changes that setting, and only that one.
    const raised = await runCli(['run', '--resume', suiteId, '--cost-cap', '2', '--store', store], { cwd: elsewhere, env: { OPENAI_API_KEY: 'k' } });
    const raisedScenario = await runCli(['run', '--resume', scenarioId, '--cost-cap', '2', '--retry-errors', '--store', store], { cwd: elsewhere, env: { OPENAI_API_KEY: 'k' } });
    expect([raised.code, raisedScenario.code], raised.stderr + raisedScenario.stderr).toEqual([3, 3]);
    expect(kept(suiteId)).toEqual({ ...planned.suite, costCapUsd: 2 });
    // --retry-errors is this session's: the kept config does not retry for every later worker.
    expect(kept(scenarioId)).toEqual({ ...planned.scenario, costCapUsd: 2 });

    // A study's command, run again without its cap and concurrency, leaves them kept too.
    writeFileSync(join(cwd, 'study.yaml'), ['name: keep', 'observations:', '  - { id: o1, text: "Teacher: What do you notice?" }',
      'items:', '  - { id: uptake, construct: builds on what the student said, scale: { min: 1, max: 3 } }', 'raters: { r: "openai:learner" }', ''].join('\n'));
    const study = ['validity', 'run', 'study.yaml', '--base-url', down, '--prices', 'prices.json', '--store', store];
    const first = await runCli([...study, '--cost-cap', '0.5', '--concurrency', '2'], { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(first.code, first.stderr).toBe(3);
    const studyKept = kept(first.stdout.trim());
    expect(studyKept).toMatchObject({ costCapUsd: 0.5, concurrency: 2 });
    const again = await runCli(study, { cwd, env: { OPENAI_API_KEY: 'k' } });
    expect(again.code, again.stderr).toBe(3);
    expect(kept(first.stdout.trim())).toEqual(studyKept);
  });

  it('a run id the store does not hold says how to find it, and a store that does not exist is not made empty', async () => {
    const { cwd, elsewhere, store } = workspace();
    const planned = await runCli(['scenario', 'run', 'socratic.yaml', '--plan-only', '--store', store], { cwd });
    expect(planned.code, planned.stderr).toBe(0);
    const runId = planned.stdout.trim().split('\n').at(-1)!;
    // From another folder without --store: the default store there does not exist.
    const nowhere = await runCli(['run', '--resume', runId], { cwd: elsewhere });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain(`no store at ${join(elsewhere, '.paideia', 'paideia.db')}`);
    expect(existsSync(join(elsewhere, '.paideia'))).toBe(false);
    const unknown = await runCli(['run', '--resume', 'scn-0000000000000000', '--store', store], { cwd: elsewhere });
    expect(unknown.code).toBe(2);
    const hint = hintAfter(unknown.stderr, 'list its runs with:');
    expect(hint).toBe(`paideia runs --store ${store}`);
    const listed = await runPasted(hint, { cwd: elsewhere });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(runId);
  });

  it('a run whose scenario file moved says which file it reads and how to go on, and the hint works once the file is back', async () => {
    const { cwd, elsewhere, store } = workspace();
    const planned = await runCli(['scenario', 'run', 'socratic.yaml', '--plan-only', '--store', store], { cwd });
    expect(planned.code, planned.stderr).toBe(0);
    const runId = planned.stdout.trim().split('\n').at(-1)!;
    renameSync(join(cwd, 'socratic.yaml'), join(cwd, 'moved.yaml'));
    const moved = await runCli(['run', '--resume', runId, '--store', store], { cwd: elsewhere });
    expect(moved.code).toBe(2);
    expect(moved.stderr).toContain(`run ${runId} continues from its file ${join(cwd, 'socratic.yaml')}, which is not there: put the file back at that path`);
    const hint = hintAfter(moved.stderr, 'then resume with:');
    renameSync(join(cwd, 'moved.yaml'), join(cwd, 'socratic.yaml'));
    const pasted = await runPasted(hint, { cwd: elsewhere });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout.trim().split('\n').at(-1)).toBe(runId);
  });
});
