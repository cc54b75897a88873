import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenarioBatchCommand } from './scenario-batch.js';
import { scenarioValidateCommand, type ScenarioIO } from './scenario.js';
import type { BatchCell } from '../../scenarios/synthesis/index.js';
import { draftJson, questionsJson } from '../../scenarios/synthesis/testing.js';
import { scenarioDir } from '../../scenarios/testing/fixtures.js';
import { openStore } from '../../store/index.js';

function capture(): ScenarioIO & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (t: string) => { io.out += t; }, stderr: (t: string) => { io.err += t; }, env: {} };
  return io;
}

const judged = `<json>${JSON.stringify({ adapts_to_the_learner: 2, uses_the_learner_s_context: 3, checks_understanding: 4, scaffolds_in_small_steps: 3, invites_own_ideas: 2, respectful_and_honest: 5, reason: 'ok' })}</json>`;
const SCRIPT = JSON.stringify({ byRole: {
  'synthesis:metrics': [draftJson()], 'synthesis:questions': [questionsJson(6, k => `Persona ${k}`)],
  'synthesis:answer': ['A third is one of three equal parts.'], 'synthesis:judge': [judged],
  // The written scenarios run on the same script: their teacher and judge need turns too.
  teacher: ['A third is one of three equal parts.'], judge: [judged],
}, onEnd: 'repeat-last' });

async function callCount(store: string, runId: string): Promise<number> {
  const s = await openStore(store, { mustExist: true, readOnly: true });
  const n = (await s.listCalls(runId)).length;
  await s.close();
  return n;
}

describe('paideia scenario synthesize-batch', () => {
  it('one stored synthesis per grid cell, one runnable scenario each and an index of indicators; the same command resumes and calls nothing more', async () => {
    const dir = scenarioDir({ 's.json': SCRIPT });
    const store = `sqlite:${join(dir, 'p.db')}`;
    const outDir = join(dir, 'grid');
    const flags = {
      types: 'knowledge explanation,socratic tutoring', subjects: 'maths', grades: 'grade 4,grade 8',
      description: 'A {type} scenario in {subject} for {grade} learners.', generator: 'gen=baseline:script', answerer: 'teacher=baseline:script',
      judge: 'judge=baseline:script', script: join(dir, 's.json'), rounds: '1', questions: '6', anchors: '2', store, outDir,
    };
    // Interrupted before anything: every cell is left to do, nothing is written but the index.
    const stopped = new AbortController();
    stopped.abort();
    const first = capture();
    expect(await scenarioBatchCommand(flags, first, stopped.signal)).toBe(3);
    expect(first.err).toMatch(/0 cell\(s\) written, 0 failed, 4 left/);

    const io = capture();
    expect(await scenarioBatchCommand(flags, io)).toBe(0);
    expect(io.out).toBe(`${join(outDir, 'index.json')}\n`);
    const index = JSON.parse(readFileSync(join(outDir, 'index.json'), 'utf8')) as { runId: string; cells: BatchCell[]; select: string };
    expect(index.select).toBe('quality');
    expect(index.cells.map(c => [c.id, c.status, c.file])).toEqual([
      ['knowledge-explanation--maths--grade-4', 'done', 'knowledge-explanation--maths--grade-4.yaml'],
      ['knowledge-explanation--maths--grade-8', 'done', 'knowledge-explanation--maths--grade-8.yaml'],
      ['socratic-tutoring--maths--grade-4', 'done', 'socratic-tutoring--maths--grade-4.yaml'],
      ['socratic-tutoring--maths--grade-8', 'done', 'socratic-tutoring--maths--grade-8.yaml'],
    ]);
    expect(index.cells[0]!.indicators).toHaveLength(6);
    expect(index.cells[0]!.indicators![0]).toEqual({ name: 'Adapts to the learner', field: 'adapts_to_the_learner', dimension: 'Personalisation', weight: expect.any(Number) });
    const cell = join(outDir, 'socratic-tutoring--maths--grade-8.yaml');
    expect(readFileSync(cell, 'utf8')).toContain('description: A socratic tutoring scenario in maths for grade 8 learners.');
    const ok = capture();
    expect(await scenarioValidateCommand(cell, {}, ok)).toBe(0);
    expect(ok.out).toMatch(/ok: scenario "socratic_tutoring__maths__grade_8"/);

    const calls = await callCount(store, index.runId);
    expect(calls).toBeGreaterThan(4 * 10);
    const again = capture();
    expect(await scenarioBatchCommand(flags, again)).toBe(0);
    expect(await callCount(store, index.runId)).toBe(calls);

    const mean = capture();
    expect(await scenarioBatchCommand({ ...flags, select: 'weighted-mean', outDir: join(dir, 'by-mean') }, mean)).toBe(0);
    expect(readFileSync(join(dir, 'by-mean', 'index.json'), 'utf8')).toContain('"select": "weighted-mean"');
    expect(readFileSync(join(dir, 'by-mean', 'socratic-tutoring--maths--grade-8.yaml'), 'utf8')).toMatch(/is round 1 by weighted mean score 0\.\d{3}/);
  });

  it('bad input exits 2: no grid, a template that does not name the cell, an unknown selection', async () => {
    const dir = scenarioDir({ 's.json': SCRIPT });
    const base = { generator: 'gen=baseline:script', answerer: 'teacher=baseline:script', judge: 'judge=baseline:script', script: join(dir, 's.json'), store: `sqlite:${join(dir, 'p.db')}` };
    const none = capture();
    expect(await scenarioBatchCommand({ ...base, description: 'x' }, none)).toBe(2);
    expect(none.err).toMatch(/field "--types": give a comma-separated list[\s\S]*field "--out-dir"/);
    const template = capture();
    expect(await scenarioBatchCommand({ ...base, types: 'a', subjects: 'b', grades: 'c', outDir: join(dir, 'o'), description: 'A lesson in {subject}.' }, template)).toBe(2);
    expect(template.err).toMatch(/field "--description": a batch description is a template naming the cell: it lacks \{type\}, \{grade\}/);
    const select = capture();
    expect(await scenarioBatchCommand({ ...base, types: 'a', subjects: 'b', grades: 'c', outDir: join(dir, 'o'), description: '{type} {subject} {grade}', select: 'best' }, select)).toBe(2);
    expect(select.err).toMatch(/field "--select": expected quality or weighted-mean, got "best"/);
    expect(existsSync(join(dir, 'o'))).toBe(false);
  });
});
