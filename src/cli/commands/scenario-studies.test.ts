import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scenarioExportCommand, scenarioImportCommand, scenarioRunCommand, type ScenarioIO } from './scenario.js';
import { scenarioStudyCommand } from './scenario-studies.js';
import type { FakeServer } from '../../providers/testing/fake-servers.js';
import { formatCsv, parseCsv } from '../../scenarios/csv.js';
import type { AblationStudy, StabilityStudy } from '../../scenarios/studies/index.js';
import { ELMES_FIXTURES, startElmesServer } from '../../scenarios/testing/elmes-server.js';
import { scenarioDir } from '../../scenarios/testing/fixtures.js';
import { openStore } from '../../store/index.js';

function capture(): ScenarioIO & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (t: string) => { io.out += t; }, stderr: (t: string) => { io.err += t; }, env: {} };
  return io;
}

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const variance = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};

/** plus-short.yaml run against a local server with a judge whose repeats vary, and two experts imported. */
async function judgedRun() {
  const local = await startElmesServer({ noisyJudge: true });
  servers.push(local);
  const dir = scenarioDir({});
  const file = join(dir, 'plus-short.yaml');
  copyFileSync(join(ELMES_FIXTURES, 'plus-short.yaml'), file);
  const store = `sqlite:${join(dir, 'p.db')}`;
  const flags = { model: ['teacher=openai:chem-tutor', 'student=openai:chem-pupil', 'judge=openai:chem-judge'], baseUrl: local.baseURL };
  const run = await scenarioRunCommand(file, { store, judge: true, ...flags }, capture());
  expect(run.exitCode).toBe(0);
  const out = join(dir, 'blind.csv');
  expect(await scenarioExportCommand(run.runId!, { store, format: 'csv', out }, capture())).toBe(0);
  const [header, ...rows] = parseCsv(readFileSync(out, 'utf8')).map(r => r.fields);
  expect(header).toEqual(['id', 'task', 'transcript', 'Knowledge accuracy', 'Heuristic guidance', 'comment']);
  for (const [rater, shift] of [['ana', 0], ['ben', 1]] as const) {
    const filled = join(dir, `${rater}.csv`);
    writeFileSync(filled, formatCsv([header!, ...rows.map((r, i) => [...r.slice(0, 3), String(1 + ((i + shift) % 5)), String(1 + ((2 * i + shift) % 5)), ''])]));
    expect(await scenarioImportCommand(run.runId!, { store, file: filled, rater }, capture())).toBe(0);
  }
  return { local, file, store, flags, runId: run.runId! };
}

describe('judge studies over a stored scenario run, against a local server with a scripted judge', () => {
  it('stability: N repeats per judge and dialogue, variance per judge x model x dimension beside the experts\'; only the judge is called', async () => {
    const { local, file, store, flags, runId } = await judgedRun();
    const before = local.requests.length;
    const io = capture();
    expect(await scenarioStudyCommand('stability', file, { store, ...flags, judgeRepeats: '4', format: 'json' }, io)).toBe(0);
    const study = JSON.parse(io.out) as StabilityStudy;
    expect(study.runId).toBe(runId);
    expect(study.judgments).toBe(6 * 4);
    const calls = local.requests.slice(before);
    // Repeat 0 asks what the run asked (answered from the store); repeats 1-3 are new judge calls only.
    expect(calls).toHaveLength(6 * 3);
    expect(calls.every(r => (r.body as { model: string }).model === 'chem-judge')).toBe(true);
    const s = await openStore(store, { mustExist: true, readOnly: true });
    const judgments = await s.listJudgments(runId);
    const scores = await s.listScores(runId);
    await s.close();
    // The study's judgments are the groups of 4 (the run's own evaluation judged once per dialogue).
    const byDialogue = new Map<string, number[]>();
    for (const j of judgments) {
      const key = `${j.promptVariant}|${j.targetTrialId}`;
      (byDialogue.get(key) ?? byDialogue.set(key, []).get(key)!).push(j.value!);
    }
    const studyGroups = [...byDialogue].filter(([, vs]) => vs.length === 4).map(([, vs]) => vs);
    expect(studyGroups).toHaveLength(6);
    const row = study.rows.find(r => r.dimension === null)!;
    expect(row).toMatchObject({ judge: 'judge', model: 'teacher', dialogues: 6, repeats: 4 });
    expect(row.variance).toBeCloseTo(studyGroups.map(variance).reduce((a, b) => a + b, 0) / 6, 12);
    expect(row.variance).toBeGreaterThan(0);
    // The experts' variance: per dialogue the variance between ana and ben, averaged.
    const humans = new Map<string, number[]>();
    for (const x of scores.filter(x => x.scorer.name.startsWith('human:'))) (humans.get(x.trialId) ?? humans.set(x.trialId, []).get(x.trialId)!).push(x.value!);
    expect(row.expertVariance).toBeCloseTo([...humans.values()].map(variance).reduce((a, b) => a + b, 0) / humans.size, 12);
    expect(study.rows.map(r => r.dimension).sort()).toEqual(['Heuristic guidance', 'Knowledge accuracy', null].sort());
    const md = capture();
    expect(await scenarioStudyCommand('stability', file, { store, ...flags, judgeRepeats: '4' }, md)).toBe(0);
    expect(md.out).toMatch(/\| judge \| teacher \| weighted score \| 6 \| 4\.0 \| \d\.\d{5} \| \d\.\d{5} \(6\) \|/);
    // Run again: every judgment is stored, nothing is called.
    expect(local.requests.length).toBe(before + 6 * 3);
  });

  it('ablation: each judge variant\'s deviation from the experts and agreement with intervals; the file\'s variant reuses its judgments', async () => {
    const { local, file, store, flags } = await judgedRun();
    const before = local.requests.length;
    const io = capture();
    expect(await scenarioStudyCommand('ablation', file, { store, ...flags, variants: 'file,mode-tool,temperature-0,reasoning-off,anchors-off', format: 'json' }, io)).toBe(0);
    const study = JSON.parse(io.out) as AblationStudy;
    expect(study.variants.map(v => [v.variant, v.judgments])).toEqual([['file', 6], ['mode-tool', 6], ['temperature-0', 6], ['reasoning-off', 6], ['anchors-off', 6]]);
    // file and anchors-off (the file has no anchors) are the file's judgments: 3 new variants x 6 dialogues.
    const calls = local.requests.slice(before).map(r => r.body as { model: string; tools?: unknown[]; temperature?: number; messages: Array<{ content: string }> });
    expect(calls).toHaveLength(3 * 6);
    expect(calls.filter(c => c.tools !== undefined)).toHaveLength(6);
    expect(calls.filter(c => c.temperature === 0)).toHaveLength(6);
    expect(calls.filter(c => c.messages.some(m => m.content.includes('Give the scores only')))).toHaveLength(6);
    expect(study.variants.find(v => v.variant === 'anchors-off')!.version).toBe(study.variants.find(v => v.variant === 'file')!.version);
    const row = study.rows.find(r => r.variant === 'file' && r.dimension === null)!;
    expect(row.n).toBe(6);
    expect(row.meanAbsDeviation.mean).toBeGreaterThanOrEqual(Math.abs(row.meanDeviation.mean!));
    expect(row.icc).not.toBeNull();
    expect(row.kendallTauB).not.toBeNull();
    expect(row.meanDeviation.low).not.toBeNull();
    const md = capture();
    expect(await scenarioStudyCommand('ablation', file, { store, ...flags, variants: 'file,mode-tool' }, md)).toBe(0);
    expect(md.out).toMatch(/\| mode-tool \| weighted score \| 6 \| -?\d\.\d{3} \[-?\d\.\d{3}, -?\d\.\d{3}\] n=6 \|/);
    const bad = capture();
    expect(await scenarioStudyCommand('ablation', file, { store, ...flags, variants: 'anchors' }, bad)).toBe(2);
    expect(bad.err).toMatch(/field "--variants": unknown variant "anchors"; known: file, reasoning-on/);
  });

  it('a study needs the stored run: exit 2 with the command that makes it', async () => {
    const dir = scenarioDir({});
    const file = join(dir, 'plus-short.yaml');
    copyFileSync(join(ELMES_FIXTURES, 'plus-short.yaml'), file);
    const store = `sqlite:${join(dir, 'p.db')}`;
    (await openStore(store)).close();
    const io = capture();
    expect(await scenarioStudyCommand('stability', file, { store, model: ['teacher=baseline:copy', 'student=baseline:copy', 'judge=baseline:copy'] }, io)).toBe(2);
    expect(io.err).toMatch(/field "run": no stored run scn-[0-9a-f]+ of this scenario with these models .*paideia scenario run /);
    // The hint carries the same bindings: pasted without them, the run would be another run (or refused).
    const hint = /make its dialogues first with: (.*)$/m.exec(io.err)?.[1] ?? '';
    for (const m of ['teacher=baseline:copy', 'student=baseline:copy', 'judge=baseline:copy']) expect(hint).toContain(`--model ${m}`);
    expect(hint).toContain(`--store ${store}`);
  });
});
