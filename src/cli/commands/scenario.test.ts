import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  registerScenario, scenarioExportCommand, scenarioImportCommand, scenarioReportCommand, scenarioRunCommand, scenarioSynthesizeCommand, scenarioValidateCommand, type ScenarioIO,
} from './scenario.js';
import { formatCsv, parseCsv } from '../../scenarios/csv.js';
import { draftJson, questionsJson } from '../../scenarios/synthesis/testing.js';
import { LOOP_SCENARIO, scenarioDir } from '../../scenarios/testing/fixtures.js';
import { openAIChatBody, startOpenAICompatibleServer } from '../../providers/testing/fake-servers.js';
import { runCli } from '../testing/run-cli.js';
import { openStore } from '../../store/index.js';
import { runPasted } from '../testing/run-pasted.js';

function capture(env?: NodeJS.ProcessEnv): ScenarioIO & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (t: string) => { io.out += t; }, stderr: (t: string) => { io.err += t; }, ...(env ? { env } : {}) };
  return io;
}

const SCRIPTED = LOOP_SCENARIO
  .replace('tutor: { type: openai, model: tutor-model, api_base: http://127.0.0.1:9/v1 }', 'tutor: { type: baseline, model: script, script: s.json }')
  .replace('learner: { type: openai, model: learner-model, api_base: http://127.0.0.1:9/v1 }', 'learner: { type: baseline, model: script, script: s.json }')
  .replace('judge: { type: openai, model: judge-model, api_base: http://127.0.0.1:9/v1 }', 'judge: { type: baseline, model: script, script: s.json, api_key: "${SCRIPT_KEY}" }');
const SCRIPT = JSON.stringify({ byRole: { teacher: ['Why?', 'Yes. <end>'], student: ['Because.'], judge: ['<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>'] }, onEnd: 'repeat-last' });

describe('paideia scenario (commands)', () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  it('validate prints one file:line, field: message per problem and exits 2', async () => {
    const dir = scenarioDir({ 'bad.yaml': SCRIPTED.replace('globals:', 'globls:').replace('{persona} on', '{persona} on {topic}'), 's.json': SCRIPT });
    const io = capture({ SCRIPT_KEY: 'k' });
    expect(await scenarioValidateCommand(join(dir, 'bad.yaml'), {}, io)).toBe(2);
    // Every problem at once: the unknown key does not hide the problems found past it.
    expect(io.err).toBe(`error: ${join(dir, 'bad.yaml')}:2, field "globls": unknown key "globls"; did you mean "globals"?\n`
      + `${join(dir, 'bad.yaml')}:14, field "agents.teacher.prompt.0.content": unknown variable {topic} in prompt 0 of agent "teacher": the tasks have no variable "topic"; variables: persona, problem\n`);
  });

  it('validate reports a missing variable and a bad --model by name, and says ok for a good file', async () => {
    const dir = scenarioDir({ 'ok.yaml': SCRIPTED, 's.json': SCRIPT });
    const missing = capture({});
    expect(await scenarioValidateCommand(join(dir, 'ok.yaml'), {}, missing)).toBe(2);
    expect(missing.err).toMatch(/field "models\.judge\.api_key": environment variable SCRIPT_KEY is not set/);
    const badSpec = capture({ SCRIPT_KEY: 'k' });
    expect(await scenarioValidateCommand(join(dir, 'ok.yaml'), { model: ['openai:gpt-4.1'] }, badSpec)).toBe(2);
    expect(badSpec.err).toMatch(/field "--model": "openai:gpt-4.1" names no scenario model/);
    const ok = capture({ SCRIPT_KEY: 'k' });
    expect(await scenarioValidateCommand(join(dir, 'ok.yaml'), {}, ok)).toBe(0);
    expect(ok.out).toMatch(/ok: scenario "loop", 4 task\(s\), agents teacher, student, under test: teacher \(tutor\), judges: judge/);
  });

  it('validate warns (exit 0) when no path from START reaches END', async () => {
    const loop = SCRIPTED.replace(/  - teacher -> router:any_keyword_route\(.*\)\n/, '  - teacher -> student\n');
    expect(loop).not.toBe(SCRIPTED);
    const dir = scenarioDir({ 'loop.yaml': loop, 'ok.yaml': SCRIPTED, 's.json': SCRIPT });
    const io = capture({ SCRIPT_KEY: 'k' });
    expect(await scenarioValidateCommand(join(dir, 'loop.yaml'), {}, io)).toBe(0);
    expect(io.err).toMatch(/^warning: directions: no path from START reaches END .* globals\.recursion_limit \(20 turns\) and is marked capped/m);
    expect(io.out).toMatch(/ok: scenario "loop"/);
    const ok = capture({ SCRIPT_KEY: 'k' });
    expect(await scenarioValidateCommand(join(dir, 'ok.yaml'), {}, ok)).toBe(0);
    expect(ok.err).not.toMatch(/reaches END/);
  });

  it('run stores and judges; --resume needs a stored run; exit codes follow the contract', async () => {
    const dir = scenarioDir({ 'ok.yaml': SCRIPTED, 's.json': SCRIPT });
    const store = `sqlite:${join(dir, 'p.db')}`;
    const resumeFirst = capture({ SCRIPT_KEY: 'k' });
    expect((await scenarioRunCommand(join(dir, 'ok.yaml'), { store, judge: true, resume: true }, resumeFirst)).exitCode).toBe(2);
    expect(resumeFirst.err).toMatch(/field "--resume": no stored run scn-[0-9a-f]+ of this scenario/);
    const io = capture({ SCRIPT_KEY: 'k' });
    const first = await scenarioRunCommand(join(dir, 'ok.yaml'), { store, judge: true, report: join(dir, 'r.json') }, io);
    expect(first.exitCode).toBe(0);
    expect(io.err).toMatch(/4 ended, 0 capped, 0 failed, 0 pending dialogue\(s\); judgments: 4 new, 0 stored/);
    const resumed = capture({ SCRIPT_KEY: 'k' });
    expect(await scenarioRunCommand(join(dir, 'ok.yaml'), { store, judge: true, resume: true }, resumed)).toEqual({ runId: first.runId, exitCode: 0 });
    expect(resumed.err).toMatch(/judgments: 0 new, 4 stored/);
    const interrupted = new AbortController();
    interrupted.abort();
    const stopped = capture({ SCRIPT_KEY: 'k' });
    const other = join(dir, 'other.yaml');
    writeFileSync(other, SCRIPTED.replace('persona: [Ana, Ben]', 'persona: [Cy]'));
    expect((await scenarioRunCommand(other, { store, judge: true }, stopped, interrupted.signal)).exitCode).toBe(3);
    expect(stopped.err).toMatch(/resume with: (npx )?paideia scenario run .*other\.yaml --resume/);
    expect(stopped.err).toMatch(/0 ended, 0 capped, 0 failed, 2 pending dialogue\(s\); 2 judgment\(s\) still to make; spent/);
    // Rate limits are checked before anything runs, and a printed resume keeps them.
    const tpmOnly = capture({ SCRIPT_KEY: 'k' });
    expect((await scenarioRunCommand(other, { store, judge: true, tpm: '1000' }, tpmOnly)).exitCode).toBe(2);
    expect(tpmOnly.err).toMatch(/field "--tpm": a token limit goes with a request limit: add --rpm N/);
    const zero = capture({ SCRIPT_KEY: 'k' });
    expect((await scenarioRunCommand(other, { store, judge: true, maxInFlight: '0' }, zero)).exitCode).toBe(2);
    expect(zero.err).toMatch(/--max-in-flight.*a whole number >= 1/);
    const limited = capture({ SCRIPT_KEY: 'k' });
    expect((await scenarioRunCommand(other, { store, judge: true, rpm: '600', maxInFlight: '2' }, limited, interrupted.signal)).exitCode).toBe(3);
    expect(limited.err).toMatch(/resume with: (npx )?paideia scenario run .*other\.yaml .*--rpm 600 --max-in-flight 2 --resume/);
  });

  it('run says why judgments went unscored, grouped by reason, and where the report lists them', async () => {
    // The judge never answers in the format: three attempts each, then stored unscored.
    const chatty = JSON.stringify({ byRole: { teacher: ['Why?', 'Yes. <end>'], student: ['Because.'], judge: ['A fine lesson, 4 out of 5.'] }, onEnd: 'repeat-last' });
    const dir = scenarioDir({ 'ok.yaml': SCRIPTED, 's.json': chatty });
    const io = capture({ SCRIPT_KEY: 'k' });
    const run = await scenarioRunCommand(join(dir, 'ok.yaml'), { store: `sqlite:${join(dir, 'p.db')}`, judge: true }, io);
    expect(run.exitCode, io.err).toBe(0);
    expect(io.err).toMatch(/judgments: 4 new, 0 stored, 4 unscored/);
    expect(io.err).toContain("4 judgment(s) unscored (kept with the judge's answer, never counted as 0), by reason:\n  4 x the judge's answer did not fit format after 3 attempt(s): no JSON object found");
    expect(io.err).toMatch(new RegExp(`the report lists them per judge: (npx )?paideia scenario report ${run.runId} --format md --store `));
  });

  it('report --out - prints the report and writes no file named "-"', async () => {
    const dir = scenarioDir({ 'ok.yaml': SCRIPTED, 's.json': SCRIPT });
    const store = `sqlite:${join(dir, 'p.db')}`;
    const run = await scenarioRunCommand(join(dir, 'ok.yaml'), { store, judge: true }, capture({ SCRIPT_KEY: 'k' }));
    const io = capture();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(await scenarioReportCommand(run.runId!, { store, format: 'md', out: '-' }, io)).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(io.out).toMatch(/^# Scenario /);
    expect(existsSync(join(dir, '-'))).toBe(false);
  });

  it('a call that times out names what gives the model longer: scenario run --timeout, or the entry\'s kargs.timeout, which wins over it', async () => {
    const judged = '<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>';
    const slow = await startOpenAICompatibleServer({
      reply: req => ({ body: openAIChatBody({ text: (req.body as { model: string }).model === 'judge-model' ? judged : 'Yes. <end>' }), delayMs: 300 }),
    });
    try {
      const yaml = LOOP_SCENARIO.replaceAll('http://127.0.0.1:9/v1', slow.baseURL);
      const dir = scenarioDir({ 'flag.yaml': yaml, 'kargs.yaml': yaml.replace(`tutor-model, api_base: ${slow.baseURL} }`, `tutor-model, api_base: ${slow.baseURL}, kargs: { timeout: 0.1 } }`) });
      const store = `sqlite:${join(dir, 'p.db')}`;
      const flag = join(dir, 'flag.yaml');
      const io = capture();
      const first = await scenarioRunCommand(flag, { store, judge: true, timeout: '100' }, io);
      expect(first.exitCode, io.err).toBe(1);
      expect(io.err).toMatch(/did not answer within 100 ms \(if the model is slow, give (npx )?paideia scenario run a longer one: --timeout 200\)/);
      expect(io.err).not.toContain('timeoutMs');
      // the flag it names gives the calls longer on the resume its retry hint prints
      expect(io.err).toMatch(/retry them with: (npx )?paideia scenario run \S+flag\.yaml --timeout 100 --resume --retry-errors/);
      const longer = capture();
      expect(await scenarioRunCommand(flag, { store, judge: true, timeout: '5000', resume: true, retryErrors: true }, longer)).toEqual({ runId: first.runId, exitCode: 0 });

      const kargs = capture();
      expect((await scenarioRunCommand(join(dir, 'kargs.yaml'), { store, judge: true, timeout: '5000' }, kargs)).exitCode).toBe(1);
      expect(kargs.err).toContain(`did not answer within 100 ms (if the model is slow, raise models.tutor.kargs.timeout (seconds) in ${join(dir, 'kargs.yaml')}, e.g. timeout: 0.2)`);
    } finally {
      await slow.close();
    }
  });

  it('stopped by a server that went away, the resume hint asks the failed dialogues again, and finishes them pasted', async () => {
    const judged = '<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>';
    const answer = (req: { body: unknown }) => ({ body: openAIChatBody({ text: (req.body as { model: string }).model === 'judge-model' ? judged : 'Yes. <end>' }) });
    // Answers two turns, then is gone.
    let server: Awaited<ReturnType<typeof startOpenAICompatibleServer>> | undefined;
    server = await startOpenAICompatibleServer({ reply: (req, i) => {
      if (i === 1) setTimeout(() => void server!.close(), 0);
      return answer(req);
    } });
    // Its models' endpoint comes from OPENAI_BASE_URL, which the shell the hint is pasted in lacks.
    const dir = scenarioDir({ 'loop.yaml': LOOP_SCENARIO.replaceAll(', api_base: http://127.0.0.1:9/v1', '') });
    const store = `sqlite:${join(dir, 'p.db')}`;
    const io = capture({ OPENAI_BASE_URL: server.baseURL });
    const first = await scenarioRunCommand(join(dir, 'loop.yaml'), { store, judge: true, concurrency: '1' }, io);
    expect(first.exitCode, io.err).toBe(3);
    expect(io.err).toMatch(/\d+ ended, \d+ capped, [1-9]\d* failed/);
    const hint = /resume with: (.*)/.exec(io.err)![1]!;
    expect(hint).toContain(`--base-url ${server.baseURL}`);
    expect(hint).toMatch(/ --resume --retry-errors/);
    const back = await startOpenAICompatibleServer({ port: Number(new URL(server.origin).port), reply: answer });
    try {
      // By id too, in a shell without OPENAI_BASE_URL: back to where the run called its models.
      const byId = await runCli(['run', '--resume', first.runId!, '--store', store], { cwd: dir, env: {} });
      expect(byId.code, byId.stderr).toBe(1);
      const pasted = await runPasted(hint, { cwd: dir, env: {} });
      expect(pasted.code, pasted.stderr).toBe(0);
      expect(pasted.stderr).toMatch(/4 ended, 0 capped, 0 failed, 0 pending/);
    } finally {
      await back.close();
    }
  }, 60_000);

  it('stopped by a server that went away while judging: the failed judgments are counted and the resume hint asks them again', async () => {
    const judged = '<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>';
    // Answers every turn; the first judge call finds it failing, and it is gone.
    let server: Awaited<ReturnType<typeof startOpenAICompatibleServer>> | undefined;
    server = await startOpenAICompatibleServer({ reply: req => {
      if ((req.body as { model: string }).model !== 'judge-model') return { body: openAIChatBody({ text: 'Yes. <end>' }) };
      setTimeout(() => void server!.close(), 0);
      return { status: 500, body: { error: { message: 'overloaded' } } };
    } });
    // Three attempts a call: the judge calls that spend them on the gone server are stored failed until three in a row say it is gone.
    const dir = scenarioDir({ 'loop.yaml': LOOP_SCENARIO.replaceAll(', api_base: http://127.0.0.1:9/v1', '').replace('attempt: 1,', 'attempt: 3,') });
    const store = `sqlite:${join(dir, 'p.db')}`;
    const io = capture({ OPENAI_BASE_URL: server.baseURL });
    const first = await scenarioRunCommand(join(dir, 'loop.yaml'), { store, judge: true, concurrency: '1' }, io);
    expect(first.exitCode, io.err).toBe(3);
    expect(io.err).toMatch(/4 ended, 0 capped, 0 failed, 0 pending dialogue\(s\); \d+ judgment\(s\) still to make, [1-9]\d* failed/);
    const hint = /resume with: (.*)/.exec(io.err)![1]!;
    expect(hint).toMatch(/ --resume --retry-errors/);
    const back = await startOpenAICompatibleServer({ port: Number(new URL(server.origin).port), reply: req => ({ body: openAIChatBody({ text: (req.body as { model: string }).model === 'judge-model' ? judged : 'Yes. <end>' }) }) });
    try {
      const pasted = await runPasted(hint, { cwd: dir, env: {} });
      expect(pasted.code, pasted.stderr).toBe(0);
      expect(pasted.stderr).toMatch(/judgments: \d+ new, \d+ stored, 0 unscored, 0 failed, 0 pending/);
    } finally {
      await back.close();
    }
  }, 60_000);

  it('export writes the blind CSV and the private key; import stores the expert; the report compares them', async () => {
    const dir = scenarioDir({ 'ok.yaml': SCRIPTED, 's.json': SCRIPT });
    const store = `sqlite:${join(dir, 'p.db')}`;
    const { runId } = await scenarioRunCommand(join(dir, 'ok.yaml'), { store, judge: true }, capture({ SCRIPT_KEY: 'k' }));
    const out = join(dir, 'blind.csv');
    const noOut = capture();
    expect(await scenarioExportCommand(runId!, { store, format: 'csv' }, noOut)).toBe(2);
    expect(noOut.err).toBe('error: field "--out": name the file to write, e.g. --out blind.csv\n');
    const badFormat = capture();
    expect(await scenarioExportCommand(runId!, { store, format: 'xlsx', out }, badFormat)).toBe(2);
    expect(badFormat.err).toBe('error: field "--format": expected csv or labelstudio, got "xlsx"\n');
    const io = capture();
    expect(await scenarioExportCommand(runId!, { store, format: 'csv', out, seed: '4' }, io)).toBe(0);
    expect(io.out).toBe(`${out}\n`);
    expect(io.err).toContain(`private key (do not give it to the experts): ${out}.private-key.json`);
    const [header, ...rows] = parseCsv(readFileSync(out, 'utf8')).map(r => r.fields);
    expect(header).toEqual(['id', 'task', 'transcript', 'clarity', 'warmth', 'comment']);
    const filled = join(dir, 'anna.csv');
    writeFileSync(filled, formatCsv([header!, ...rows.map((r, i) => [...r.slice(0, 3), String(1 + i), i === 1 ? '6' : '3', ''])]));
    const bad = capture();
    expect(await scenarioImportCommand(runId!, { store, file: filled, rater: 'anna' }, bad)).toBe(2);
    // Transcripts span lines, so the second row starts where its quoted fields say.
    const line = parseCsv(readFileSync(filled, 'utf8'))[2]!.line;
    expect(line).toBeGreaterThan(3);
    expect(bad.err).toBe(`error: ${filled}:${line}, field "warmth": "6" is outside the scale 1 to 5\n`);
    writeFileSync(filled, formatCsv([header!, ...rows.map((r, i) => [...r.slice(0, 3), String(1 + i), '3', ''])]));
    const ok = capture();
    expect(await scenarioImportCommand(runId!, { store, file: filled, rater: 'anna' }, ok)).toBe(0);
    expect(ok.err).toBe('4 dialogue(s) scored by human:anna; 0 empty row(s) skipped\n');
    const md = capture();
    expect(await scenarioReportCommand(runId!, { store, format: 'md' }, md)).toBe(0);
    expect(md.out).toContain('## Judges and experts');
    expect(md.out).toContain('Experts: anna (4).');
    const html = capture();
    expect(await scenarioReportCommand(runId!, { store, format: 'html' }, html)).toBe(0);
    expect(html.out).toMatch(/^<!DOCTYPE html>/);
  });

  it('synthesize writes a scenario that validates and runs; missing flags exit 2, a generator that never fits exits 1', async () => {
    const judged = `<json>${JSON.stringify({ adapts_to_the_learner: 2, uses_the_learner_s_context: 3, checks_understanding: 4, scaffolds_in_small_steps: 3, invites_own_ideas: 2, respectful_and_honest: 5, reason: 'ok' })}</json>`;
    const script = JSON.stringify({ byRole: {
      'synthesis:metrics': [draftJson()], 'synthesis:questions': [questionsJson(6, k => `Persona ${k}`)],
      'synthesis:answer': ['A third is one of three equal parts.'], 'synthesis:judge': [judged],
      teacher: ['A third is one of three equal parts.'], judge: [judged],
    }, onEnd: 'repeat-last' });
    const dir = scenarioDir({ 'scripts/s.json': script, 'desc.md': 'Tutor 10-12 year olds on fractions.\n' });
    const store = `sqlite:${join(dir, 'p.db')}`;
    const out = join(dir, 'out', 'synth.yaml');
    const flags = { description: join(dir, 'desc.md'), generator: 'gen=baseline:script', answerer: 'teacher=baseline:script', judge: 'judge=baseline:script', script: join(dir, 'scripts/s.json'), rounds: '1', questions: '6', anchors: '2', store };
    const io = capture();
    expect(await scenarioSynthesizeCommand({ ...flags, out }, io)).toBe(0);
    expect(io.out).toBe(`${out}\n`);
    expect(io.err).toMatch(/^round 1: quality [0-9.]+, drift 0\.000, accepted \(best: round 1\)\nsynthesis syn-[0-9a-f]+: best round 1 of 1, stopped by rounds/);
    const yaml = readFileSync(out, 'utf8');
    expect(yaml).toContain('script: ../scripts/s.json');
    expect(yaml).toContain('description: Tutor 10-12 year olds on fractions.');
    const ok = capture();
    expect(await scenarioValidateCommand(out, {}, ok)).toBe(0);
    expect(ok.out).toMatch(/ok: scenario "synthesized", 6 task\(s\), agents teacher, under test: teacher \(teacher\), judges: judge \(prompt mode/);
    const ran = capture();
    expect((await scenarioRunCommand(out, { store, judge: true }, ran)).exitCode).toBe(0);
    expect(ran.err).toMatch(/6 ended, 0 capped, 0 failed, 0 pending dialogue\(s\); judgments: 6 new/);

    const missing = capture();
    expect(await scenarioSynthesizeCommand({ store, generator: 'gen=openai', answerer: 'teacher=baseline:script' }, missing)).toBe(2);
    expect(missing.err.split('\n').filter(Boolean)).toEqual([
      'error: field "--generator": bad model spec "gen=openai": no provider prefix; expected "provider:model" or "alias=provider:model", with provider one of openai, anthropic, ollama, baseline, replay (e.g. openai:gpt-4.1, judge=anthropic:claude-sonnet-4, baseline:gold)',
      'field "--judge": name the judge model: --judge alias=provider:model (e.g. --judge judge=openai:gpt-4.1)',
      'field "--description": give the scenario description: a file, or the text itself',
      'field "--answerer": baseline:script needs --script <file>',
    ]);
    const badRounds = capture();
    expect(await scenarioSynthesizeCommand({ ...flags, rounds: '0' }, badRounds)).toBe(2);
    expect(badRounds.err).toBe('error: field "--rounds": expected a whole number >= 1, got "0"\n');
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ byRole: { 'synthesis:metrics': ['no idea'] }, onEnd: 'repeat-last' }));
    const failed = capture();
    expect(await scenarioSynthesizeCommand({ ...flags, description: 'Tutor fractions.', script: join(dir, 'bad.json') }, failed)).toBe(1);
    expect(failed.err).toMatch(/^synthesis: the generator's metric draft was not valid after 3 attempt\(s\): no JSON object found/);

    // A judge that never conforms: exit 1 naming the judge and its last answer, nothing written.
    writeFileSync(join(dir, 'mute.json'), script.replace(JSON.stringify(judged), JSON.stringify('Ten out of ten!')));
    const mute = capture();
    const muteOut = join(dir, 'out', 'mute.yaml');
    expect(await scenarioSynthesizeCommand({ ...flags, out: muteOut, script: join(dir, 'mute.json') }, mute)).toBe(1);
    expect(mute.err).toMatch(/^synthesis: the judge judge=baseline:script's scoring of round 1 \(every one of its 6 case\(s\) is unscored\) was not valid after 3 attempt\(s\): no JSON object found.*Last answer began: "Ten out of ten!"/m);
    expect(mute.out).toBe('');
    expect(existsSync(muteOut)).toBe(false);
  });

  it('registers validate, run, schema, report, export, import and synthesize under `scenario`; schema prints the JSON Schema', async () => {
    const program = new Command('paideia').exitOverride();
    registerScenario(program);
    const scenario = program.commands.find(c => c.name() === 'scenario')!;
    expect(scenario.commands.map(c => c.name())).toEqual(['validate', 'run', 'schema', 'report', 'export', 'import', 'stability', 'ablate', 'synthesize-batch', 'synthesize']);
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { out += String(chunk); return true; });
    await program.parseAsync(['node', 'paideia', 'scenario', 'schema']);
    const schema = JSON.parse(out) as { title: string; properties: Record<string, unknown> };
    expect(schema.title).toBe('Paideia scenario');
    expect(Object.keys(schema.properties)).toEqual(['name', 'description', 'globals', 'models', 'agents', 'directions', 'tasks', 'evaluation', 'mcps']);
  });
});

describe('scenario run given a run id', () => {
  it('says it is a run id and how to continue it by id, with a hint that works pasted', async () => {
    const dir = scenarioDir({});
    await (await openStore(`sqlite:${join(dir, 'p.db')}`)).close();
    const r = await runCli(['scenario', 'run', '--resume', 'scn-0123456789abcdef', '--store', `sqlite:${join(dir, 'p.db')}`], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: scn-0123456789abcdef is a run id, not a scenario file; continue a stored run by its id with: paideia run --resume scn-0123456789abcdef --store sqlite:\S+p\.db$/m);
    // Pasted, it reaches the stored runs (here: none by that id).
    const pasted = await runPasted(r.stderr.split('with: ')[1]!.trim(), { cwd: dir });
    expect(pasted.stderr).toMatch(/no run "scn-0123456789abcdef"/);
  });
});
