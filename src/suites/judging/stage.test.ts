import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProviderCallError, parseModelSpec, type ChatModel, type ChatRequest, type Score, type Store } from '../../core/index.js';
import { runSuite } from '../run.js';
import { rescoreSuite } from '../rescore.js';
import { retryMiddleware, wrapChatModel } from '../../providers/middleware/index.js';
import { createMockModel, type MockChatModel } from '../../providers/testing/mock-model.js';
import { builtInScorers } from '../../scoring/builtins.js';
import { openStore } from '../../store/index.js';
import { BUILT_IN_TESTS } from '../tests/index.js';
import { scoreExplanations } from './aggregate.js';
import { judgingConfig, type JudgingConfig } from './config.js';
import { EXPLANATION_SCORER, type StoredJudgment } from './score.js';

// The real tutor_accuracy samples: 20 English (BLiMP) and 20 Irish items.
const samples = ['english', 'irish'].map(s => fileURLToPath(new URL(`../../../data/samples/${s}/tutor_accuracy.jsonl`, import.meta.url)));
const prices = { source: 'test', date: '2026-11-29', models: { 'baseline:*': { input: 0, output: 0 } } };
const scorers = builtInScorers();

const userText = (r: ChatRequest) => r.messages.filter(m => m.role === 'user').map(m => m.content).join('\n');
const sentenceOf = (r: ChatRequest) => /Learner's sentence[^\n]*\n(.*)/.exec(userText(r))?.[1] ?? '';

/**
 * A tutor that answers with the gold correction and an explanation, except: prose (unparseable) for
 * the Joseph item, an empty explanation for the Homer item.
 */
function tutorModel(): MockChatModel {
  return createMockModel(request => {
    const sentence = sentenceOf(request);
    if (sentence.startsWith('Joseph')) return 'This sentence looks fine to me.';
    const gold = JSON.parse(request.hints!.gold!) as Record<string, unknown>;
    return JSON.stringify({ ...gold, explanation: sentence.startsWith('Homer') ? '' : `Look at the agreement in "${sentence}".` });
  }, { provider: 'openai' });
}

/** A judge answering from a function of the request; wrapped with 3 attempts and no real waiting. */
function judge(respond: (r: ChatRequest, i: number) => string | Promise<string>): MockChatModel & { wrapped: ChatModel } {
  const m = createMockModel((r, _o, i) => respond(r, i));
  const wrapped = wrapChatModel(m, retryMiddleware({ maxAttempts: 3, sleep: async () => {} }));
  return Object.assign(m, { wrapped });
}

const pass = () => JSON.stringify({ pass: true, reason: 'correct and clear' });
const fail = (why = 'wrong rule') => JSON.stringify({ pass: false, reason: why });

const tutors = new WeakMap<Store, ChatModel>();

async function setup(tutorSpec = 'openai:mistral-small', runPrices: typeof prices = prices) {
  const store = await openStore('sqlite::memory:');
  const tutor = tutorModel();
  tutors.set(store, tutor);
  const { run } = await runSuite({
    store, suites: samples, models: [parseModelSpec(`tutor=${tutorSpec}`), parseModelSpec('baseline:gold')], repeats: 2, seed: 7, params: {},
    testDefinitions: BUILT_IN_TESTS, scorers, createModel: s => (s.provider === 'baseline' ? goldModel() : tutor), prices: runPrices,
    concurrency: () => 4,
  });
  return { store, runId: run.id, tutor };
}

function goldModel(): ChatModel {
  return { ...createMockModel(r => r.hints!.gold!), provider: 'baseline', isBaseline: true };
}

/** Resume the run with two judges: their trials join it and run through the same engine. */
async function judgeWith(
  store: Store, runId: string, config: JudgingConfig, a: ChatModel, b: ChatModel,
  over: { retryErrors?: boolean; useCache?: boolean; costCapUsd?: number; concurrency?: number } = {},
) {
  const judges = new Map([['a', a], ['b', b]]);
  const { concurrency, ...rest } = over;
  const { judging, summary } = await runSuite({
    store, suites: [], models: [], repeats: 1, seed: 7, params: {}, testDefinitions: BUILT_IN_TESTS, scorers, prices, resumeRunId: runId,
    judging: config, createModel: s => judges.get(s.alias) ?? (s.provider === 'baseline' ? goldModel() : tutors.get(store)!),
    concurrency: () => concurrency ?? 4, ...rest,
  });
  return { ...judging!, stoppedBy: summary.stoppedBy };
}

/** Ids of the judge trials of a run (those that judge another trial), by judge alias. */
async function judgeTrials(store: Store, runId: string, alias?: string): Promise<Set<string>> {
  return new Set((await store.listTrials(runId)).filter(t => t.target !== undefined && (!alias || t.modelAlias === alias)).map(t => t.id));
}

const explanationScores = async (store: Store, runId: string) => (await store.listScores(runId)).filter(s => s.scorer.name === EXPLANATION_SCORER);
const judgments = (s: Score) => s.details!.judgments as unknown as StoredJudgment[];
const config = () => judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4']);

describe('explanations judged by two judges', () => {
  it('passes an explanation only when both judges pass it, and stores every judge call', async () => {
    const { store, runId } = await setup();
    const a = judge(pass);
    const b = judge(r => (sentenceOf(r).includes('these book') ? fail('does not say that "these" needs a plural noun') : pass()));
    const summary = await judgeWith(store, runId, config(), a.wrapped, b.wrapped);
    // 40 items x 2 repeats for the tutor and for gold; the tutor's Joseph and Homer answers are not judged.
    expect(summary.trials).toBe(160);
    expect(summary.counts).toEqual({ judged: 76, 'not-applicable': 0, 'no-explanation': 84, unscored: 0, pending: 0 });
    // The tutor answers both repeats of an item alike: identical judge requests share one call.
    expect(a.calls).toHaveLength(38);
    expect(b.calls).toHaveLength(38);
    const scores = await explanationScores(store, runId);
    expect(scores).toHaveLength(160);
    const trials = new Map((await store.listTrials(runId)).map(t => [t.id, t]));
    const book = scores.filter(s => trials.get(s.trialId)!.itemId === 'blimp:determiner_noun_agreement_1:417:tutor_accuracy' && trials.get(s.trialId)!.modelAlias === 'tutor');
    expect(book.map(s => s.value)).toEqual([0, 0]);
    expect(book[0]!.reason).toBe('b fails it: does not say that "these" needs a plural noun');
    expect(judgments(book[0]!).map(j => j.verdict)).toEqual(['pass', 'fail']);
    expect(summary.passed).toBe(74);
    // The rubric prompt carries the learner's sentence, the gold correction, the tutor's correction and explanation.
    const asked = userText(b.calls.find(c => sentenceOf(c.request).includes('these book'))!.request);
    expect(asked).toContain('The men could find these book.');
    expect(asked).toContain('"book" should be "books"');
    expect(asked).toContain("Tutor's corrected sentence: The men could find these books.");
    expect(asked).toContain('Look at the agreement in');
    // Judge calls sit in the calls table under judge trials that point at the judged trial.
    const calls = await store.listCalls(runId);
    const judged = scores.find(s => s.value === 1)!;
    const ofJudged = (await store.listTrials(runId)).filter(t => t.target === judged.trialId && t.modelAlias === 'a').map(t => t.id);
    expect(calls.filter(c => ofJudged.includes(c.trialId))).toHaveLength(1);
    const judgeIds = await judgeTrials(store, runId);
    expect(calls.filter(c => judgeIds.has(c.trialId))).toHaveLength(152);
    expect(calls.filter(c => judgeIds.has(c.trialId) && c.cached)).toHaveLength(76);
    // The score is separate from the headline and records both judges.
    expect(judged.scorer).toMatchObject({ name: 'explanation-dual-judge', version: '1', args: { judges: [{ alias: 'a', spec: 'openai:gpt-4.1', family: 'openai' }, { alias: 'b', spec: 'anthropic:claude-sonnet-4', family: 'anthropic' }] } });
    expect((await store.listScores(runId)).filter(s => s.trialId === judged.trialId).map(s => s.scorer.name).sort()).toEqual(['explanation-dual-judge', 'tutor-edit']);
  });

  it('records why an answer has no explanation score (unparseable, empty, baseline)', async () => {
    const { store, runId } = await setup();
    await judgeWith(store, runId, config(), judge(pass).wrapped, judge(pass).wrapped);
    const trials = new Map((await store.listTrials(runId)).map(t => [t.id, t]));
    const scores = await explanationScores(store, runId);
    const of = (alias: string, itemId: string) => scores.find(s => trials.get(s.trialId)!.modelAlias === alias && trials.get(s.trialId)!.itemId === itemId)!;
    expect(of('tutor', 'blimp:anaphor_gender_agreement:237:tutor_accuracy')).toMatchObject({ value: null, details: { status: 'no-explanation' } });
    expect(of('tutor', 'blimp:anaphor_gender_agreement:237:tutor_accuracy').reason).toMatch(/unparseable answer/);
    expect(of('tutor', 'blimp:anaphor_gender_agreement:406:tutor_accuracy')).toMatchObject({ value: null, reason: 'no explanation to judge: the answer has an empty explanation' });
    expect(of('baseline:gold', 'blimp:anaphor_gender_agreement:406:tutor_accuracy').details).toMatchObject({ status: 'no-explanation' });
  });

  it('gives a model of a judge\'s family no explanation score and calls no judge for it', async () => {
    const { store, runId } = await setup('openai:gpt-4.1-mini');
    const a = judge(pass);
    const b = judge(pass);
    const summary = await judgeWith(store, runId, config(), a.wrapped, b.wrapped);
    expect(a.calls.length + b.calls.length).toBe(0);
    expect(summary.counts['not-applicable']).toBe(76);
    const na = (await explanationScores(store, runId)).find(s => s.details?.status === 'not-applicable')!;
    expect(na.value).toBeNull();
    expect(na.reason).toBe('not applicable: the model is of the family "openai", as judge a');
    // An override of the family table makes it judgeable.
    const overridden = judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4'], ['tutor=openai-tuned'], [parseModelSpec('tutor=openai:gpt-4.1-mini')]);
    const again = await judgeWith(store, runId, overridden, a.wrapped, b.wrapped);
    expect(again.counts['not-applicable']).toBe(0);
    expect(again.counts.judged).toBe(76);
  });

  it('leaves an explanation unscored (null, not wrong) when a judge call fails three times', async () => {
    const { store, runId } = await setup();
    let down = true;
    const a = judge(pass);
    const b = judge(r => {
      if (down && sentenceOf(r).includes('Fostaí')) throw new ProviderCallError({ message: 'HTTP 500 upstream', kind: 'http', statusCode: 500, isRetryable: true });
      return pass();
    });
    const summary = await judgeWith(store, runId, config(), a.wrapped, b.wrapped);
    expect(summary.counts.unscored).toBe(2); // the item's two repeats
    const failing = b.calls.filter(c => sentenceOf(c.request).includes('Fostaí'));
    expect(failing).toHaveLength(6); // 2 repeats x 3 attempts: a failed call is not shared
    const scores = await explanationScores(store, runId);
    const unscored = scores.filter(s => s.details?.status === 'unscored');
    expect(unscored.map(s => s.value)).toEqual([null, null]);
    expect(unscored[0]!.reason).toMatch(/^unscored: b: judge call failed after every attempt: HTTP 500 upstream/);
    expect(judgments(unscored[0]!).map(j => j.verdict)).toEqual(['pass', 'error']);
    const errors = (await store.listCalls(runId)).filter(c => c.status === 'error');
    expect(errors.map(c => c.attempts)).toEqual([3, 3]);
    // A re-run does not ask again; --retry-errors does, once.
    const n = a.calls.length + b.calls.length;
    expect((await judgeWith(store, runId, config(), a.wrapped, b.wrapped)).counts.unscored).toBe(2);
    expect(a.calls.length + b.calls.length).toBe(n);
    down = false;
    const retried = await judgeWith(store, runId, config(), a.wrapped, b.wrapped, { retryErrors: true });
    expect(retried.counts).toMatchObject({ unscored: 0, judged: 76 });
    expect(a.calls.length + b.calls.length).toBe(n + 1); // the two repeats' identical requests share the retry
  });

  it('asks again after an unparseable verdict, then leaves it unscored', async () => {
    const { store, runId } = await setup();
    const a = judge(r => (sentenceOf(r).includes('Dúúirt') ? 'I think it is good.' : pass()));
    const b = judge(r => (sentenceOf(r).includes('these book') && !userText(r).includes('did not fit') ? 'PASS!' : pass()));
    const summary = await judgeWith(store, runId, config(), a.wrapped, b.wrapped);
    const garbled = a.calls.filter(c => sentenceOf(c.request).includes('Dúúirt'));
    expect(garbled.map(c => c.request.messages.length)).toEqual([2, 4, 6]); // 1 + 2 format retries, shared by both repeats
    const retry = garbled[1]!;
    expect(retry.request.messages.at(-2)).toEqual({ role: 'assistant', content: 'I think it is good.' });
    expect(retry.request.messages.at(-1)!.content).toMatch(/did not fit the required format/);
    expect(summary.counts.unscored).toBe(2);
    const scores = await explanationScores(store, runId);
    expect(scores.find(s => s.details?.status === 'unscored')!.reason).toMatch(/a: no answer fitted \{pass, reason\} after 3 tries/);
    // b recovered on its second try: judged, with both calls stored on its judge trial.
    const trials = new Map((await store.listTrials(runId)).map(t => [t.id, t]));
    const book = scores.find(s => trials.get(s.trialId)!.itemId === 'blimp:determiner_noun_agreement_1:417:tutor_accuracy' && trials.get(s.trialId)!.modelAlias === 'tutor')!;
    expect(book.value).toBe(1);
    expect(judgments(book).find(j => j.judge === 'b')!.verdict).toBe('pass');
    const bTrial = [...trials.values()].find(t => t.target === book.trialId && t.modelAlias === 'b')!;
    expect((await store.listCalls(runId, { trialIds: [bTrial.id] })).map(c => c.step)).toEqual([0, 1]);
  });

  it('never asks a judge again on a re-run, and rescore recomputes every score from the stored calls', async () => {
    const { store, runId } = await setup();
    const a = judge(pass);
    const b = judge(r => (sentenceOf(r).includes('chonaic') ? fail() : pass()));
    await judgeWith(store, runId, config(), a.wrapped, b.wrapped);
    const before = await explanationScores(store, runId);
    const n = a.calls.length + b.calls.length;
    await judgeWith(store, runId, config(), a.wrapped, b.wrapped);
    expect(a.calls.length + b.calls.length).toBe(n);
    // Wipe the scores' values, then rescore: no model exists here at all.
    await store.saveScores(before.map(s => ({ ...s, value: null, reason: 'wiped' })));
    const r = await rescoreSuite(store, runId, BUILT_IN_TESTS, scorers);
    expect(r.explanations?.trials).toBe(160);
    const after = await explanationScores(store, runId);
    expect(after.map(s => [s.trialId, s.value, s.reason])).toEqual(before.map(s => [s.trialId, s.value, s.reason]));
    // With the cache off, every judgment is its own call, repeats included.
    const fresh = await setup();
    const c = judge(pass);
    const d = judge(pass);
    await judgeWith(fresh.store, fresh.runId, config(), c.wrapped, d.wrapped, { useCache: false });
    expect([c.calls.length, d.calls.length]).toEqual([76, 76]);
    // Another judge spec is another request: asked afresh, not read from the old judge's records.
    const other = judgingConfig(['a=openai:gpt-4.1-mini', 'b=anthropic:claude-sonnet-4']);
    await judgeWith(store, runId, other, a.wrapped, b.wrapped);
    expect(a.calls.length).toBe(38 * 2);
    expect(b.calls.length).toBe(38);
  });

  it('scores the same a page of trials at a time, whatever the page size', async () => {
    const { store, runId } = await setup();
    const a = judge(r => (sentenceOf(r).includes('Donna') ? fail('misses the rule') : pass()));
    const b = judge(r => (sentenceOf(r).includes('chonaic') ? 'no verdict here' : pass()));
    const whole = await judgeWith(store, runId, config(), a.wrapped, b.wrapped);
    const stored = async () => (await explanationScores(store, runId)).map(s => [s.trialId, s.value, s.reason, s.details]);
    const before = await stored();
    expect(new Set(before.map(s => s[1]))).toEqual(new Set([0, 1, null]));
    // 7 splits the 80 trials under test of each model (and the baseline's) at many places.
    const paged = await scoreExplanations(store, runId, config(), 7);
    expect(paged).toEqual({ trials: whole.trials, counts: whole.counts, passed: whole.passed });
    expect(await stored()).toEqual(before);
    await store.close();
  });

  it('stops before a judge call could pass the cost cap, keeping the rest pending', async () => {
    // Prices are the run's, stored when it started.
    const priced = { ...prices, models: { ...prices.models, 'openai:mistral-small': { input: 0, output: 0 }, 'openai:gpt-4.1': { input: 1000, output: 1000 }, 'anthropic:claude-sonnet-4': { input: 0, output: 0 } } };
    const { store, runId } = await setup('openai:mistral-small', priced);
    const a = judge(pass);
    const b = judge(pass);
    const summary = await judgeWith(store, runId, config(), a.wrapped, b.wrapped, { costCapUsd: 0.0001, concurrency: 1 });
    expect(summary.stoppedBy).toBe('cost-cap');
    expect(a.calls).toHaveLength(0);
    expect(summary.counts.pending).toBe(76);
    expect((await explanationScores(store, runId)).filter(s => s.details?.status === 'pending')[0]!.reason).toMatch(/^pending: judge a/);
  });
});
