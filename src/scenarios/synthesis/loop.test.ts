import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat-model.js';
import { parseModelSpec } from '../../core/model-spec.js';
import { openStore } from '../../store/index.js';
import { loadScenario } from '../load.js';
import { scenarioReport } from '../report.js';
import { runScenario } from '../run.js';
import { scenarioDir } from '../testing/fixtures.js';
import { synthesize } from './synthesize.js';
import { draftJson, questionsJson, roleModel } from './testing.js';
import type { RoundRecord } from './types.js';

const LENIENT = 'adapts_to_the_learner';
const STRICT = 'respectful_and_honest';
const FIELDS = ['adapts_to_the_learner', 'uses_the_learner_s_context', 'checks_understanding', 'scaffolds_in_small_steps', 'invites_own_ideas', 'respectful_and_honest'];

/**
 * The generator: a first answer without JSON (retried), then the draft; anchors on its first
 * question call; metric revisions tagged DRIFT, then WORSE, then BETTER; prompts v1, v2, ...
 */
const makeGenerator = () => roleModel((r, role, turn) => {
  switch (role) {
    case 'synthesis:metrics': return turn === 0 ? 'Sure! Metrics below.' : draftJson();
    case 'synthesis:questions': {
      const n = Number(/Write exactly (\d+) questions/.exec(r.messages[0]!.content)![1]);
      return turn === 0 ? questionsJson(n, k => `Anchor persona ${k}`) : questionsJson(n, k => `Persona ${k} (call ${turn})`);
    }
    case 'synthesis:evolve-metrics': {
      // Each revision says which version it grew from, so a missing rollback shows.
      const tag = ['DRIFT', 'WORSE', 'BETTER'][turn]!;
      const names = [...r.messages[0]!.content.matchAll(/^- (.+?) \(/gm)].map(m => m[1]!);
      const from = /Description: (DRIFT|WORSE|BETTER)/.exec(r.messages[0]!.content)?.[1] ?? 'BASE';
      return `<json>${JSON.stringify({ metrics: names.map(name => ({ name, description: `${tag} ${name}, revised from ${from}`, positive: 'p', negative: 'n' })) })}</json>`;
    }
    case 'synthesis:evolve-prompt': {
      const from = /version (\d+),/.exec(r.messages[0]!.content)?.[1];
      return `<json>{"prompt": "Probe the weak spots, version ${turn + 1}, grown from ${from ? `version ${from}` : 'the initial prompt'}."}</json>`;
    }
    default: throw new Error(`unexpected role ${role}`);
  }
}, 'generator');

const makeAnswerer = () => roleModel(r => `Answer: ${r.messages.at(-1)!.content}`, 'answerer');

/**
 * The judge reads the rubric's tag and the learner. Round questions: varying metrics score
 * 3, 4, 2, ... by persona; the lenient metric 5 and the strict one 1 until BETTER fixes them;
 * WORSE flattens everything to 3. Anchors keep their scores (BETTER moves the lenient one by a
 * point: a change below the drift threshold) except under DRIFT, which sends them all to 5.
 */
function judgeScores(r: ChatRequest): Record<string, number> {
  const system = r.messages[0]!.content;
  const tag = ['DRIFT', 'WORSE', 'BETTER'].find(t => system.includes(t)) ?? 'BASE';
  const learner = /Learner: (Anchor persona|Persona) (\d+)/.exec(r.messages[1]!.content)!;
  const anchor = learner[1] === 'Anchor persona';
  const vary = [2, 3, 4][Number(learner[2]) % 3]!;
  return Object.fromEntries(FIELDS.map(f => {
    if (anchor) return [f, tag === 'DRIFT' ? 5 : f === LENIENT ? (tag === 'BETTER' ? 4 : 5) : f === STRICT ? 1 : vary];
    if (tag === 'WORSE') return [f, 3];
    if (tag === 'BETTER') return [f, vary];
    return [f, f === LENIENT ? 5 : f === STRICT ? 1 : vary];
  }));
}
const makeJudge = () => roleModel(r => `<json>${JSON.stringify({ ...judgeScores(r), reason: 'ok' })}</json>`, 'judge');

const specs = {
  generator: parseModelSpec('gen=openai:gpt-4.1'),
  answerer: parseModelSpec('openai:gpt-4.1-mini'),
  judge: parseModelSpec('grader=anthropic:claude-sonnet-4'),
};

describe('rubric synthesis loop with scripted models', () => {
  it('detects drift, rolls back regressions, keeps the best version, stops on a plateau, stores every round and writes a scenario that runs', async () => {
    const store = await openStore('sqlite::memory:');
    const [generator, answerer, judge] = [makeGenerator(), makeAnswerer(), makeJudge()];
    const seen: RoundRecord[] = [];
    const r = await synthesize({
      description: 'Tutor 10-12 year olds on fractions.', models: { generator, answerer, judge }, specs, store,
      rounds: 10, questions: 6, anchors: 3, thresholds: { patience: 3 }, concurrency: 2, onRound: x => seen.push(x),
    });
    expect(r.rounds.map(x => x.decision)).toEqual(['accepted', 'rollback-drift', 'rollback-regression', 'improved', 'no-improvement', 'no-improvement', 'no-improvement']);
    expect(r.stoppedBy).toBe('plateau');
    expect(seen).toHaveLength(7);
    expect(r.rounds.map(x => x.best)).toEqual([1, 1, 1, 4, 4, 4, 4]);
    expect(r.best.round).toBe(4);

    // Quality by hand: a varying metric (scores 3 4 2 3 4 2) has mean .5 and sd sqrt(.05), so
    // health (1 + sqrt(.05) / .25) / 2; round 1 has four of those and two at the floor or ceiling.
    const varying = (1 + Math.sqrt(0.05) / 0.25) / 2;
    expect(r.rounds[0]!.quality).toBeCloseTo((4 * varying) / 6, 12);
    expect(r.rounds[2]!.quality).toBeCloseTo(0.5, 12);
    expect(r.rounds[3]!.quality).toBeCloseTo(varying, 12);
    // Drift: under DRIFT every anchor cell goes to 5 (.5 mean change); BETTER moves one metric by a point on each anchor.
    expect(r.rounds[1]!.drift).toBeCloseTo(0.5, 12);
    expect(r.rounds[2]!.drift).toBe(0);
    expect(r.rounds[3]!.drift).toBeCloseTo(0.25 / 6, 12);
    expect(r.rounds[1]!.stats.find(s => s.field === LENIENT)!.flags).toEqual(['too-lenient', 'weak']);

    // Rollback: rounds 3 and 4 grow from round 1's version, not from the rejected one before them.
    const lenient = (x: RoundRecord) => x.version.metrics.find(m => m.field === LENIENT)!.description;
    expect(lenient(r.rounds[1]!)).toBe('DRIFT Adapts to the learner, revised from BASE');
    expect(lenient(r.rounds[2]!)).toBe('WORSE Adapts to the learner, revised from BASE');
    expect(lenient(r.rounds[3]!)).toBe('BETTER Adapts to the learner, revised from BASE');
    expect(r.rounds.map(x => x.version.generationPrompt.replace(/^Write test questions[\s\S]*/, 'initial'))).toEqual([
      'initial',
      'Probe the weak spots, version 1, grown from the initial prompt.',
      'Probe the weak spots, version 2, grown from the initial prompt.',
      'Probe the weak spots, version 3, grown from the initial prompt.',
      'Probe the weak spots, version 4, grown from version 3.',
      'Probe the weak spots, version 5, grown from version 3.',
      'Probe the weak spots, version 6, grown from version 3.',
    ]);
    expect(r.rounds[2]!.changed).toEqual({ metrics: [LENIENT, STRICT], prompt: true });
    expect(r.rounds[4]!.changed).toEqual({ metrics: [], prompt: true });
    // The kept version is round 4's: its metrics and questions make the scenario.
    expect(r.best.version.metrics.find(m => m.field === STRICT)!.description).toBe('BETTER Respectful and honest, revised from BASE');
    // Names, dimensions and weights never move.
    const fixed = (x: RoundRecord) => x.version.metrics.map(m => [m.name, m.field, m.dimension, m.weight]);
    for (const x of r.rounds) expect(fixed(x)).toEqual(fixed(r.rounds[0]!));
    // The draft was retried once; no metric revision was asked once nothing was flagged.
    expect(generator.calls.filter(c => c.context?.role === 'synthesis:metrics')).toHaveLength(2);
    expect(generator.calls.filter(c => c.context?.role === 'synthesis:evolve-metrics')).toHaveLength(3);
    // The answerer saw the user-facing question only; the judge saw the internal one.
    expect(answerer.calls.every(c => !c.messages.at(-1)!.content.includes('at most 120 words'))).toBe(true);
    expect(judge.calls[0]!.messages[1]!.content).toContain('at most 120 words');

    const rounds = await store.listArtifacts(r.runId, 'synthesis-round');
    expect(rounds.map(a => a.key)).toEqual(['round-01', 'round-02', 'round-03', 'round-04', 'round-05', 'round-06', 'round-07']);
    expect((rounds[1]!.value as unknown as RoundRecord).decision).toBe('rollback-drift');
    const synthesis = new Map((await store.listArtifacts(r.runId, 'synthesis')).map(a => [a.key, a.value]));
    expect((synthesis.get('anchors') as { anchors: unknown[] }).anchors).toHaveLength(3);
    expect(synthesis.get('result')).toMatchObject({ best: 4, stoppedBy: 'plateau', yaml: r.yaml });
    expect((await store.getRun(r.runId))!.status).toBe('completed');

    // The YAML loads, with the best round's metrics and questions, and runs as a scenario.
    const dir = scenarioDir({});
    const file = join(dir, 'synth.yaml');
    writeFileSync(file, r.yaml);
    const s = loadScenario(file, { env: {} });
    expect(s.tasks.map(t => t.id)).toEqual(r.best.questions.map(q => q.id));
    expect(s.tasks[0]!.vars.question).toBe(r.best.questions[0]!.user);
    expect(s.evaluation!.scored.map(f => [f.field, f.dimension])).toEqual(r.best.version.metrics.map(m => [m.field, m.dimension]));
    expect([...s.models.keys()]).toEqual(['teacher', 'grader']);
    expect(s.models.get('grader')!.spec.spec).toBe('anthropic:claude-sonnet-4');
    const { run, summary } = await runScenario({ scenario: s, store, createModel: m => (m.alias === 'grader' ? judge : answerer) });
    expect(summary).toMatchObject({ dialogues: 6, ended: 6, judging: { new: 6, unscored: 0 } });
    const report = await scenarioReport(store, run.id);
    expect(report.models[0]!.score.n).toBe(6);
    expect(report.radar.axes.sort()).toEqual(['Creativity stimulation', 'Personalisation', 'Teaching method professionalism', 'Values integration']);
    await store.close();
  });

  it('fails when every case of a round is unscored: names the judge and its last answer, keeps the stored rounds, writes no result', async () => {
    const store = await openStore('sqlite::memory:');
    // The judge conforms in round 1 (and for anchors), then never again from round 2 on.
    const broken = roleModel(r => {
      const round2 = /Learner: Persona \d+ \(call [2-9]/.test(r.messages[1]!.content);
      return round2 ? 'Scores: excellent all round!' : `<json>${JSON.stringify({ ...judgeScores(r), reason: 'ok' })}</json>`;
    }, 'judge');
    const seen: RoundRecord[] = [];
    const failed = synthesize({
      description: 'x', models: { generator: makeGenerator(), answerer: makeAnswerer(), judge: broken }, specs, store,
      rounds: 3, questions: 3, anchors: 2, attempts: 2, onRound: x => seen.push(x),
    });
    await expect(failed).rejects.toThrow(/judge grader=anthropic:claude-sonnet-4's scoring of round 2 \(every one of its 3 case\(s\) is unscored\).*Last answer began: "Scores: excellent all round!"/);
    expect(seen.map(x => x.round)).toEqual([1]);
    const runs = await store.listRuns();
    const runId = runs.find(x => x.id.startsWith('syn-'))!.id;
    expect((await store.getRun(runId))!.status).toBe('failed');
    expect((await store.listArtifacts(runId, 'synthesis-round')).map(a => a.key)).toEqual(['round-01']);
    const synthesis = new Map((await store.listArtifacts(runId, 'synthesis')).map(a => [a.key, a.value]));
    expect(synthesis.has('result')).toBe(false);
    expect(synthesis.get('failure')).toMatchObject({ round: 2, raw: 'Scores: excellent all round!' });
    await store.close();
  });

  it('stops after --rounds, and a judge that never fits leaves its cases unscored, not low', async () => {
    const store = await openStore('sqlite::memory:');
    // Learners 2 and 5 always get an answer without JSON.
    const flaky = roleModel(r => (/Learner: Persona [25] /.test(r.messages[1]!.content) ? 'I would rather not say.' : `<json>${JSON.stringify({ ...judgeScores(r), reason: 'ok' })}</json>`));
    const r = await synthesize({ description: 'x', models: { generator: makeGenerator(), answerer: makeAnswerer(), judge: flaky }, specs, store, rounds: 1, questions: 6, anchors: 2, attempts: 2 });
    expect(r.stoppedBy).toBe('rounds');
    expect(r.rounds).toHaveLength(1);
    expect(r.rounds[0]!.scores.map(s => s.checks_understanding)).toEqual([3, null, 2, 3, null, 2]);
    expect(r.rounds[0]!.stats.find(s => s.field === 'checks_understanding')).toMatchObject({ n: 4, mean: 0.375 });
    // Two attempts per unscored case, the second told what was wrong.
    const asked = flaky.calls.filter(c => /Learner: Persona 2 /.test(c.messages[1]!.content));
    expect(asked).toHaveLength(2);
    expect(asked[1]!.messages.at(-1)!.content).toMatch(/^That answer did not fit the format: no JSON object found/);
    await store.close();
  });
});
