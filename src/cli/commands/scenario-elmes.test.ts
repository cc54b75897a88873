import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scenarioReportCommand, scenarioRunCommand, scenarioValidateCommand, type ScenarioIO } from './scenario.js';
import type { FakeServer } from '../../providers/testing/fake-servers.js';
import type { ScenarioReport } from '../../scenarios/report.js';
import { ELMES_FIXTURES, startElmesServer } from '../../scenarios/testing/elmes-server.js';
import { scenarioDir } from '../../scenarios/testing/fixtures.js';
import { openStore } from '../../store/index.js';

function capture(env: NodeJS.ProcessEnv): ScenarioIO & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (t: string) => { io.out += t; }, stderr: (t: string) => { io.err += t; }, env };
  return io;
}

/** A fresh folder holding the fixture, unchanged. */
function fixture(name: string): string {
  const dir = scenarioDir({});
  copyFileSync(join(ELMES_FIXTURES, name), join(dir, name));
  return join(dir, name);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const num = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as number));

const servers: FakeServer[] = [];
async function server(): Promise<FakeServer> {
  const s = await startElmesServer();
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

describe('ELMES-shaped scenario files, unchanged, against a local OpenAI-compatible server', () => {
  it('classic ELMES shape: validates, runs, sends kargs where ELMES does, and reports each field\'s mean with its interval', async () => {
    const local = await server();
    const file = fixture('classic.yaml');
    const env = { ELMES_BASE: local.baseURL, ELMES_KEY: 'k-local-1' };
    const v = capture(env);
    expect(await scenarioValidateCommand(file, {}, v)).toBe(0);
    expect(v.err).toMatch(/warning: evaluation\.format\.0 \("accuracy"\): a numeric field with no scale/);
    expect(v.err).toMatch(/warning: evaluation\.format\.1 \("patience"\)/);
    expect(v.err).not.toMatch(/ended_well/);

    const store = `sqlite:${join(file, '..', 'p.db')}`;
    const io = capture(env);
    const { runId, exitCode } = await scenarioRunCommand(file, { store, judge: true }, io);
    expect(io.err).toMatch(/4 ended, 0 capped, 0 failed, 0 pending dialogue\(s\); judgments: 4 new, 0 stored, 0 unscored/);
    expect(exitCode).toBe(0);
    const tutor = local.requests.filter(r => (r.body as { model: string }).model === 'tutor-7b');
    expect(tutor.length).toBeGreaterThan(0);
    for (const r of tutor) {
      const body = r.body as Record<string, unknown>;
      // extra_body merged into the body; client options (timeouts, retries) never in it.
      expect(body).toMatchObject({ temperature: 0.3, enable_thinking: false });
      for (const key of ['extra_body', 'request_timeout', 'max_retries', 'timeout']) expect(body).not.toHaveProperty(key);
      expect(r.headers.authorization).toBe('Bearer k-local-1');
    }

    const rio = capture(env);
    expect(await scenarioReportCommand(runId!, { store, format: 'json' }, rio)).toBe(0);
    const report = JSON.parse(rio.out) as ScenarioReport;
    expect(report.scoreKind).toBe('elmes-mean');
    const s = await openStore(store, { mustExist: true, readOnly: true });
    const judgments = await s.listJudgments(runId!);
    await s.close();
    expect(judgments).toHaveLength(4);
    const m = report.models[0]!;
    for (const field of ['accuracy', 'patience', 'ended_well']) {
      expect(m.fields[field]!.n).toBe(4);
      expect(m.fields[field]!.mean).toBeCloseTo(mean(judgments.map(j => num(j.fields[field]))), 12);
      expect(m.fields[field]!.low).not.toBeNull();
    }
    // ELMES's overall: per dialogue the mean of its numeric fields, then the mean over dialogues.
    expect(m.score.mean).toBeCloseTo(mean(judgments.map(j => mean(['accuracy', 'patience', 'ended_well'].map(f => num(j.fields[f]))))), 12);
    const md = capture(env);
    expect(await scenarioReportCommand(runId!, { store, format: 'md' }, md)).toBe(0);
    expect(md.out).toMatch(/## Fields[\s\S]*\| model \| accuracy \| patience \| ended_well \|\n\|---\|---\|---\|---\|\n\| tutor \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] n=4 \|/);
    expect(md.out).toMatch(/ELMES's: per dialogue the mean of its numeric fields/);
    // The HTML report links every dialogue to its transcript with the judge's fields and raw answer.
    const html = capture(env);
    expect(await scenarioReportCommand(runId!, { store, format: 'html' }, html)).toBe(0);
    for (const d of report.dialogues) {
      expect(html.out).toContain(`<a href="#d-${d.trialId}">`);
      expect(html.out).toContain(`<details id="d-${d.trialId}">`);
    }
    const first = report.dialogues[0]!;
    expect(first.messages.map(m => m.speaker)).toEqual(['user', 'teacher', 'student', 'teacher']);
    expect(first.judgments).toEqual([expect.objectContaining({ judge: 'grader', fields: expect.objectContaining({ comment: 'fine' }), raw: expect.stringContaining('"comment":"fine"') })]);
    expect(html.out).toMatch(/<tr><th>comment<\/th><td>fine<\/td><\/tr>/);
    expect(html.out).toMatch(/<summary>raw answer<\/summary><pre>\{&quot;accuracy&quot;/);
  });

  it('the Elmes+ short forms: null models bound with --model, inline role/content, fields with spaces and no type, one scale', async () => {
    const local = await server();
    const file = fixture('plus-short.yaml');
    const unbound = capture({});
    expect(await scenarioValidateCommand(file, {}, unbound)).toBe(2);
    expect(unbound.err).toMatch(/plus-short\.yaml:\d+, field "models\.teacher": the model "teacher" is not given .*bind it with --model teacher=provider:model/);
    expect(unbound.err).toMatch(/field "models\.student"/);
    const models = ['teacher=openai:chem-tutor', 'student=openai:chem-pupil', 'judge=openai:chem-judge'];
    const store = `sqlite:${join(file, '..', 'p.db')}`;
    const io = capture({});
    const { runId, exitCode } = await scenarioRunCommand(file, { store, judge: true, model: models, baseUrl: local.baseURL }, io);
    expect(io.err).toMatch(/6 ended, 0 capped, 0 failed, 0 pending dialogue\(s\); judgments: 6 new/);
    expect(exitCode).toBe(0);
    const teacher = local.requests.find(r => (r.body as { model: string }).model === 'chem-tutor')!.body as { messages: Array<{ role: string; content: string }> };
    expect(teacher.messages[0]).toEqual({ role: 'system', content: expect.stringMatching(/^You are a patient chemistry teacher\. The student is (shy|talkative)\.$/) });
    const rio = capture({});
    expect(await scenarioReportCommand(runId!, { store, format: 'json' }, rio)).toBe(0);
    const report = JSON.parse(rio.out) as ScenarioReport;
    expect(report.scoreKind).toBe('weighted');
    const m = report.models[0]!;
    expect(Object.keys(m.fields)).toEqual(['Knowledge accuracy', 'Heuristic guidance']);
    expect(m.fields['Knowledge accuracy']!.n).toBe(6);
    expect(Object.keys(m.dimensions)).toEqual(['Knowledge accuracy', 'Heuristic guidance']);
    // With scale 1..5 each field is placed on [0, 1]: the weighted score is the mean of (v - 1) / 4.
    const fieldMean = (m.fields['Knowledge accuracy']!.mean! + m.fields['Heuristic guidance']!.mean!) / 2;
    expect(m.score.mean).toBeCloseTo((fieldMean - 1) / 4, 12);
  });

  it('--model and --base-url replace the whole endpoint: the file\'s key never reaches the host chosen on the command line', async () => {
    const fileHost = await server();
    const chosen = await server();
    const file = fixture('classic.yaml');
    const store = `sqlite:${join(file, '..', 'p.db')}`;
    const io = capture({ ELMES_BASE: fileHost.baseURL, ELMES_KEY: 'file-secret' });
    const { exitCode } = await scenarioRunCommand(file, { store, judge: true, model: ['tutor=openai:my-tutor'], baseUrl: chosen.baseURL }, io);
    expect(exitCode).toBe(0);
    expect(fileHost.requests).toHaveLength(0);
    expect(chosen.requests.length).toBeGreaterThan(0);
    expect(chosen.requests.some(r => (r.body as { model: string }).model === 'my-tutor')).toBe(true);
    for (const r of chosen.requests) expect(r.headers.authorization).toBeUndefined();
    expect(chosen.requests.map(r => r.rawBody).join('\n')).not.toContain('file-secret');
  });

  it('bad input exits 2 before any call: a missing key variable, a base URL without a scheme, no key for a remote host', async () => {
    const local = await server();
    const file = fixture('classic.yaml');
    const store = `sqlite:${join(file, '..', 'p.db')}`;
    const noKey = capture({ ELMES_BASE: local.baseURL });
    expect((await scenarioRunCommand(file, { store, judge: true }, noKey)).exitCode).toBe(2);
    expect(noKey.err).toMatch(/classic\.yaml:\d+, field "models\.tutor\.api_key": environment variable ELMES_KEY is not set/);
    const schemeless = capture({ ELMES_BASE: '127.0.0.1:8080/v1', ELMES_KEY: 'k' });
    expect((await scenarioRunCommand(file, { store, judge: true }, schemeless)).exitCode).toBe(2);
    expect(schemeless.err).toMatch(/field "models\.tutor\.api_base": "127\.0\.0\.1:8080\/v1" is not (a URL|an http\(s\) URL)/);
    const remote = capture({ ELMES_BASE: local.baseURL, ELMES_KEY: 'k' });
    expect((await scenarioRunCommand(file, { store, judge: true, model: ['tutor=openai:gpt-4.1'] }, remote)).exitCode).toBe(2);
    expect(remote.err).toMatch(/field "models\.tutor": no API key for https:\/\/api\.openai\.com\/v1 \(model openai:gpt-4\.1\): OPENAI_API_KEY is not set/);
    expect(local.requests).toHaveLength(0);
  });

  it('failed dialogues are grouped by error on stderr and in the report', async () => {
    const local = await startElmesServer();
    servers.push(local);
    const failing = await (await import('../../providers/testing/fake-servers.js')).startOpenAICompatibleServer(() => ({ status: 401, body: { error: { message: 'invalid api key for pupil' } } }));
    servers.push(failing);
    const text = readFileSync(join(ELMES_FIXTURES, 'classic.yaml'), 'utf8');
    const dir = scenarioDir({ 'classic.yaml': text.replace(/(pupil:\n    type: openai\n    api_base: )\$\{ELMES_BASE\}/, `$1${failing.baseURL}`) });
    const file = join(dir, 'classic.yaml');
    const store = `sqlite:${join(dir, 'p.db')}`;
    const io = capture({ ELMES_BASE: local.baseURL, ELMES_KEY: 'k' });
    const { runId, exitCode } = await scenarioRunCommand(file, { store, judge: true }, io);
    expect(exitCode).toBe(1);
    expect(io.err).toMatch(/failures, grouped by error:\n  4 x dialogue of tutor \(call by pupil, HTTP 401[^)]*\): .*invalid api key for pupil/);
    const md = capture({});
    expect(await scenarioReportCommand(runId!, { store, format: 'md' }, md)).toBe(0);
    expect(md.out).toMatch(/## Failures[\s\S]*\| tutor \| dialogue \| 4 \| 401 \| .*invalid api key for pupil/);
    const html = capture({});
    expect(await scenarioReportCommand(runId!, { store, format: 'html' }, html)).toBe(0);
    expect(html.out).toMatch(/<h2>Failures<\/h2>[\s\S]*invalid api key for pupil/);
  });
});
