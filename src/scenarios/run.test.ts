import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../core/chat-model.js';
import { ProviderCallError } from '../core/errors.js';
import { parseModelSpec } from '../core/model-spec.js';
import { openAIChatBody, startOpenAICompatibleServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import type { DialogueMeta } from './dialogue.js';
import { parseScenario } from './load.js';
import { runScenario } from './run.js';
import { ScenarioRunConfigSchema, startScenarioRun } from './run-kind.js';
import { LOOP_SCENARIO, loopModels, scenarioDir } from './testing/fixtures.js';
import type { Scenario } from './types.js';

const scenario = (text = LOOP_SCENARIO, models: string[] = []): Scenario =>
  parseScenario('/tmp/loop.yaml', text, { env: {}, models: models.map(m => parseModelSpec(m)) });

async function metas(store: Awaited<ReturnType<typeof openStore>>, runId: string): Promise<Map<string, DialogueMeta>> {
  return new Map((await store.listArtifacts(runId, 'dialogue')).map(a => [a.key, a.value as unknown as DialogueMeta]));
}

describe('runScenario', () => {
  it('walks the graph per task, stores every turn as a call with its step, and judges from the store', async () => {
    const store = await openStore('sqlite::memory:');
    const models = loopModels({ teacherTurns: 3 });
    const s = scenario();
    const { run, summary } = await runScenario({ scenario: s, store, createModel: m => models[m.alias]! });
    expect(summary).toMatchObject({ dialogues: 4, ended: 4, capped: 0, failed: 0, pending: 0, judging: { judgments: 4, unscored: 0, failed: 0, aggregated: 4 } });
    expect(run.status).toBe('completed');

    const trials = (await store.listTrials(run.id)).filter(t => t.target === undefined);
    expect(trials).toHaveLength(4);
    expect(trials[0]).toMatchObject({ itemId: s.tasks[0]!.id, itemHash: s.tasks[0]!.hash, test: 'scenario:loop', modelAlias: 'tutor', modelSpec: 'openai:tutor-model', promptVersion: s.hash, repeat: 0 });

    const calls = await store.listCalls(run.id);
    const first = calls.filter(c => c.trialId === trials[0]!.id);
    expect(first.map(c => c.step)).toEqual([0, 1, 2, 3, 4]);
    expect(first.map(c => c.result!.text)).toEqual(['Question 1?', 'Answer 1', 'Question 2?', 'Answer 2', '<think>done</think>Well done! <END>']);
    const meta = (await metas(store, run.id)).get(trials[0]!.id)!;
    expect(meta).toMatchObject({ status: 'ended', endedBy: 'end', taskId: trials[0]!.itemId, start: { role: 'user', content: 'Help me with 2x = 6' } });
    expect(meta.turns.map(t => t.agent)).toEqual(['teacher', 'student', 'teacher', 'student', 'teacher']);

    // Memory: the teacher (keep_turns 2) sees everything so far; the student (memory off) only the last question.
    const teacherLast = first[4]!.request.messages;
    expect(teacherLast).toEqual([
      { role: 'system', content: 'Tutor Ana on: 2x = 6' },
      { role: 'user', content: 'Help me with 2x = 6' },
      { role: 'assistant', content: 'Question 1?' }, { role: 'user', content: 'Answer 1' },
      { role: 'assistant', content: 'Question 2?' }, { role: 'user', content: 'Answer 2' },
    ]);
    expect(first[3]!.request.messages).toEqual([{ role: 'system', content: 'You are Ana.' }, { role: 'user', content: 'Question 2?' }]);
    expect(first[3]!.request.context).toEqual({ trialId: trials[0]!.id, itemId: trials[0]!.itemId, repeat: 0, turn: 1, role: 'student' });

    // The judge saw the stored dialogue with reasoning stripped.
    const judgeRequest = models.judge!.calls[0]!.request;
    expect(judgeRequest.messages[1]!.content).toContain('user: Help me with');
    expect(judgeRequest.messages[1]!.content).toContain('teacher: Well done! <END>');
    expect(judgeRequest.messages[1]!.content).not.toContain('<think>');

    const scores = await store.listScores(run.id);
    const panel = scores.filter(x => x.scorer.name === 'judge:guide');
    expect(panel).toHaveLength(4);
    // clarity 5 on 1-5 (s = 1, w = 0.75), warmth 3 (s = 0.5, w = 0.25)
    expect(panel[0]!.value).toBeCloseTo(0.875, 12);
    expect(panel[0]!.details?.dimensions).toEqual({ Method: 1, Care: 0.5 });
    // Each judge's judgment is a stored Judgment pointing at its dialogue, made by a judge trial whose call is stored.
    const single = (await store.listJudgments(run.id)).find(j => j.targetTrialId === trials[0]!.id && j.rater.alias === 'judge' && j.repeat === 0)!;
    expect(single.producer).toEqual({ name: 'scenario-judge', version: s.evaluation!.version, args: { evaluation: 'guide', judge: 'judge', repeat: 0 } });
    expect(single.raw).toContain('<json>');
    expect(single.value).toBeCloseTo(0.875, 12);
    const judgeCalls = calls.filter(c => c.trialId === single.trialId);
    expect(judgeCalls).toHaveLength(1);
    expect(judgeCalls[0]!.result!.text).toBe(single.raw);
    // ... and it names that call: the answer it was read from can be found from the judgment alone.
    expect(single.callSeq).toBe(judgeCalls[0]!.seq);
    expect(calls.filter(c => c.request.context?.role === 'judge')).toHaveLength(4);
    await store.close();
  });

  it('the step cap (recursion_limit) keeps the partial dialogue, marks it capped and still judges it', async () => {
    const store = await openStore('sqlite::memory:');
    const models = loopModels({ teacherTurns: 99 });
    const s = scenario(LOOP_SCENARIO.replace('recursion_limit: 20', 'recursion_limit: 3'));
    const { run, summary } = await runScenario({ scenario: s, store, createModel: m => models[m.alias]! });
    expect(summary).toMatchObject({ ended: 0, capped: 4, judging: { aggregated: 4 } });
    const all = await metas(store, run.id);
    for (const meta of all.values()) {
      expect(meta).toMatchObject({ status: 'capped', endedBy: 'recursion_limit' });
      expect(meta.turns.map(t => t.agent)).toEqual(['teacher', 'student', 'teacher']);
    }
    // Three turns per dialogue, and every judge call is stored too.
    const calls = await store.listCalls(run.id);
    expect(calls.filter(c => c.request.context?.role !== 'judge')).toHaveLength(4 * 3);
    expect(calls.filter(c => c.request.context?.role === 'judge')).toHaveLength(4);
    const panel = (await store.listScores(run.id)).filter(x => x.scorer.name === 'judge:guide');
    expect(panel.map(p => p.details?.dialogueStatus)).toEqual(['capped', 'capped', 'capped', 'capped']);
    expect(panel.every(p => p.value !== null)).toBe(true);
    await store.close();
  });

  it('a loop max_turns ends the dialogue normally and says so', async () => {
    const store = await openStore('sqlite::memory:');
    const models = loopModels({ teacherTurns: 99 });
    const s = scenario(LOOP_SCENARIO.replace('else_to="student")', 'else_to="student", max_turns=2)'));
    const { run } = await runScenario({ scenario: s, store, createModel: m => models[m.alias]!, judge: false });
    for (const meta of (await metas(store, run.id)).values()) {
      expect(meta).toMatchObject({ status: 'ended', endedBy: 'max_turns' });
      expect(meta.turns).toHaveLength(3);
    }
    await store.close();
  });

  it('resumes an interrupted run, replaying stored turns without calling any model again', async () => {
    const store = await openStore('sqlite::memory:');
    const s = scenario();
    const controller = new AbortController();
    const first = loopModels({ onCall: (_r, n) => { if (n === 7) controller.abort(); } });
    const interrupted = await runScenario({ scenario: s, store, createModel: m => first[m.alias]!, signal: controller.signal });
    expect(interrupted.summary.stoppedBy).toBe('interrupt');
    expect(interrupted.summary.pending).toBeGreaterThan(0);
    expect(interrupted.summary.judging).toBeUndefined();
    // Its judges wait for the resume: every dialogue's judgment is still to make (none failed).
    expect(interrupted.summary.judgmentsPending).toBe(4);
    expect((await store.getRun(interrupted.run.id))!.status).toBe('stopped');
    const firstCalls = Object.values(first).reduce((n, m) => n + m.calls.length, 0);
    const storedAfterFirst = await store.listCalls(interrupted.run.id);
    expect(storedAfterFirst).toHaveLength(firstCalls);

    const second = loopModels();
    const resumed = await runScenario({ scenario: s, store, createModel: m => second[m.alias]! });
    expect(resumed.run.id).toBe(interrupted.run.id);
    expect(resumed.summary).toMatchObject({ ended: 4, pending: 0, judgmentsPending: 0, judging: { judgments: 4 } });
    const secondCalls = Object.values(second).reduce((n, m) => n + m.calls.length, 0);
    // 4 dialogues x 5 turns + 4 judgments, each asked exactly once over both sessions.
    expect(firstCalls + secondCalls).toBe(4 * 5 + 4);
    const calls = await store.listCalls(resumed.run.id);
    const keys = calls.map(c => `${c.trialId}/${c.step}`);
    expect(new Set(keys).size).toBe(keys.length);
    // No turn stored in the first session was asked again.
    for (const m of Object.values(second)) {
      for (const { request } of m.calls) {
        if (request.context?.role === 'judge') continue;
        const step = storedAfterFirst.find(c => c.trialId === request.context?.trialId && JSON.stringify(c.request.messages) === JSON.stringify(request.messages));
        expect(step).toBeUndefined();
      }
    }

    // A finished run makes no calls at all.
    const third = loopModels();
    const again = await runScenario({ scenario: s, store, createModel: m => third[m.alias]! });
    expect(Object.values(third).reduce((n, m) => n + m.calls.length, 0)).toBe(0);
    expect(again.summary.judging).toMatchObject({ judgments: 4, aggregated: 4 });
    await store.close();
  });

  it('changing the rubric keeps the run and its dialogues; weights re-aggregate stored judgments, what the judge sees judges again', async () => {
    const store = await openStore('sqlite::memory:');
    const callsOf = (m: ReturnType<typeof loopModels>) => ({
      agents: Object.values(m).flatMap(x => x.calls).filter(c => c.request.context?.role !== 'judge').length,
      judge: m.judge!.calls.length,
    });
    const base = scenario();
    const first = loopModels();
    const r1 = await runScenario({ scenario: base, store, createModel: m => first[m.alias]! });
    expect(callsOf(first)).toEqual({ agents: 20, judge: 4 });
    const dialogueTrials = async (runId: string) => (await store.listTrials(runId)).filter(t => t.target === undefined).map(t => t.id).sort();
    const dialogueCalls = async (runId: string) => (await store.listCalls(runId)).filter(c => c.request.context?.role !== 'judge').map(c => `${c.trialId}/${c.step}/${c.requestHash}`).sort();
    const trials1 = await dialogueTrials(r1.run.id);
    const calls1 = await dialogueCalls(r1.run.id);
    const panel = async (runId: string) => (await store.listScores(runId)).filter(x => x.scorer.name === 'judge:guide');
    // judge answer: clarity 5 (s = 1), warmth 3 (s = 0.5); weights 3:1
    expect((await panel(r1.run.id))[0]!.value).toBeCloseTo(0.75 * 1 + 0.25 * 0.5, 12);

    // Only a weight (and a dimension name) changes: no model is called, the scores follow the new weights.
    const reweighted = scenario(LOOP_SCENARIO.replace('dimension: Method, weight: 3', 'dimension: Teaching, weight: 1'));
    expect(reweighted.hash).toBe(base.hash);
    expect(reweighted.evaluation!.version).toBe(base.evaluation!.version);
    const second = loopModels();
    const r2 = await runScenario({ scenario: reweighted, store, createModel: m => second[m.alias]! });
    expect(r2.run.id).toBe(r1.run.id);
    expect(callsOf(second)).toEqual({ agents: 0, judge: 0 });
    expect(r2.summary.judging).toMatchObject({ judgments: 4, aggregated: 4 });
    const p2 = await panel(r2.run.id);
    expect(p2).toHaveLength(4);
    for (const p of p2) {
      expect(p.value).toBeCloseTo(0.5 * 1 + 0.5 * 0.5, 12);
      expect(p.details?.dimensions).toEqual({ Teaching: 1, Care: 0.5 });
    }
    const singles = (await store.listJudgments(r2.run.id)).filter(j => j.rater.alias === 'judge' && j.repeat === 0);
    expect(singles.map(x => x.value)).toEqual([0.75, 0.75, 0.75, 0.75]);

    // The judge prompt changes: the same run and dialogues, judged again under a new version.
    const reprompted = scenario(LOOP_SCENARIO.replace('Score the tutor.', 'Score the tutor strictly.'));
    expect(reprompted.hash).toBe(base.hash);
    expect(reprompted.evaluation!.version).not.toBe(base.evaluation!.version);
    const third = loopModels();
    const r3 = await runScenario({ scenario: reprompted, store, createModel: m => third[m.alias]! });
    expect(r3.run.id).toBe(r1.run.id);
    expect(callsOf(third)).toEqual({ agents: 0, judge: 4 });
    expect(await dialogueTrials(r3.run.id)).toEqual(trials1);
    expect(await dialogueCalls(r3.run.id)).toEqual(calls1);

    // A judge-only model's spec is the judge's business too: it re-judges, never re-runs dialogues.
    const otherJudge = scenario(LOOP_SCENARIO.replace('model: judge-model', 'model: judge-model-2'));
    expect(otherJudge.hash).toBe(base.hash);
    expect(otherJudge.evaluation!.version).not.toBe(base.evaluation!.version);
    await store.close();
  });

  it('a failed turn is stored with its error, the dialogue is not judged, and --retry-errors continues it', async () => {
    const store = await openStore('sqlite::memory:');
    const s = scenario();
    const models = loopModels();
    const failing = { ...models, learner: { ...models.learner!, generate: async (r: ChatRequest) => {
      if (r.context?.itemId === s.tasks[0]!.id) throw new ProviderCallError({ message: 'HTTP 400: bad request', kind: 'http', statusCode: 400, isRetryable: false });
      return models.learner!.generate(r);
    } } };
    const { run, summary } = await runScenario({ scenario: s, store, createModel: m => failing[m.alias as keyof typeof failing]! });
    expect(summary).toMatchObject({ ended: 3, failed: 1, judging: { aggregated: 3 } });
    const failedTrial = (await store.listTrials(run.id)).find(t => t.itemId === s.tasks[0]!.id && t.target === undefined)!;
    const meta = (await metas(store, run.id)).get(failedTrial.id)!;
    expect(meta).toMatchObject({ status: 'failed', endedBy: 'error', error: expect.stringContaining('turn 1 (student): HTTP 400') });
    const errorCall = (await store.listCalls(run.id)).find(c => c.trialId === failedTrial.id && c.status === 'error')!;
    expect(errorCall).toMatchObject({ step: 1, error: { name: 'ProviderCallError', kind: 'http', statusCode: 400 } });
    expect((await store.listScores(run.id)).some(x => x.trialId === failedTrial.id)).toBe(false);

    const quiet = loopModels();
    await runScenario({ scenario: s, store, createModel: m => quiet[m.alias]! });
    expect(Object.values(quiet).reduce((n, m) => n + m.calls.length, 0)).toBe(0);

    const retry = loopModels();
    const retried = await runScenario({ scenario: s, store, createModel: m => retry[m.alias]!, retryErrors: true });
    expect(retried.summary).toMatchObject({ ended: 4, failed: 0, judging: { judgments: 4, aggregated: 4 } });
    // Only the failed turn onwards was asked: student turn 1, teacher, student, teacher, then the judge.
    expect(Object.values(retry).reduce((n, m) => n + m.calls.length, 0)).toBe(4 + 1);
    await store.close();
  });

  it('runs globals.concurrency dialogues at once, no more', async () => {
    const store = await openStore('sqlite::memory:');
    let active = 0;
    let peak = 0;
    const base = loopModels();
    const slow = Object.fromEntries(Object.entries(base).map(([alias, m]) => [alias, { ...m, generate: async (r: ChatRequest) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise(resolve => setTimeout(resolve, 5));
      active--;
      return m.generate(r);
    } }]));
    await runScenario({ scenario: scenario(), store, createModel: m => slow[m.alias]!, judge: false });
    expect(peak).toBe(2);
    await store.close();
  });

  it('repeats and a model sweep multiply the trials; each variant is its own model in the tables', async () => {
    const store = await openStore('sqlite::memory:');
    const s = scenario(LOOP_SCENARIO, ['tutor=openai:a', 'tutor=openai:b']);
    const models = loopModels();
    const { run } = await runScenario({ scenario: s, store, repeats: 2, createModel: m => models[m.alias]!, judge: false });
    const trials = (await store.listTrials(run.id)).filter(t => t.target === undefined);
    expect(trials).toHaveLength(2 * 4 * 2);
    expect([...new Set(trials.map(t => `${t.modelAlias} ${t.modelSpec}`))]).toEqual(['openai:a openai:a', 'openai:b openai:b']);
    expect(new Set(trials.map(t => t.id)).size).toBe(trials.length);
    await store.close();
  });
});

describe('runScenario limits', () => {
  // Four one-turn dialogues at concurrency 4 against a server answering after 60 ms, counting
  // the requests it holds at once.
  async function maxHeld(limits?: { maxInFlight: number }): Promise<{ held: number; requests: number }> {
    let inFlight = 0;
    let held = 0;
    const server = await startOpenAICompatibleServer(() => {
      inFlight++;
      held = Math.max(held, inFlight);
      // Scheduled before the server's own 60 ms timer, so it fires first.
      setTimeout(() => inFlight--, 60);
      return { body: openAIChatBody({ text: 'Well done! <END>' }), delayMs: 60 };
    });
    try {
      const text = LOOP_SCENARIO.replace('concurrency: 2', 'concurrency: 4').replaceAll('http://127.0.0.1:9/v1', server.baseURL);
      const store = await openStore('sqlite::memory:');
      const { summary } = await runScenario({ scenario: scenario(text), store, judge: false, env: { OPENAI_API_KEY: 'k' }, ...(limits ? { limits } : {}) });
      expect(summary).toMatchObject({ dialogues: 4, ended: 4, failed: 0 });
      await store.close();
      return { held, requests: server.requests.length };
    } finally {
      await server.close();
    }
  }

  it('holds --max-in-flight across the dialogues of a run, through the store', async () => {
    const free = await maxHeld();
    expect(free.requests).toBe(4);
    expect(free.held).toBeGreaterThan(1);
    const capped = await maxHeld({ maxInFlight: 1 });
    expect(capped).toEqual({ held: 1, requests: 4 });
  });
});

describe('a scenario run\'s outcome', () => {
  it('counts the judgments a stopped run still has to make as pending, beside its dialogues', async () => {
    const dir = scenarioDir({ 'loop.yaml': LOOP_SCENARIO });
    const store = await openStore('sqlite::memory:');
    // Nothing answers at the fixture's endpoint: the run stops at once, every trial left to do.
    const outcome = await startScenarioRun(ScenarioRunConfigSchema.parse({ kind: 'scenario', file: join(dir, 'loop.yaml') }), { store, onEvent: () => undefined, env: {} });
    expect(outcome).toMatchObject({ stoppedBy: 'unreachable', done: 0, pending: 4 + 4 });
    await store.close();
  });
});
