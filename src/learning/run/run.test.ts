import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOutcome, Store } from '../../core/index.js';
import type { FakeServer } from '../../providers/testing/fake-servers.js';
import { startRun } from '../../runs.js';
import { openStore } from '../../store/index.js';
import { learningReport, type LearningReport } from '../report/index.js';
import type { LearnerRecord } from '../steps/answers.js';
import type { DeckRecord } from '../steps/deck-record.js';
import { leaks } from '../units/leak.js';
import { loadShippedUnit, startStudyServer } from '../testing/study-server.js';

const unit = loadShippedUnit('udihe-possession');
let server: FakeServer;
let store: Store;
let outcome: RunOutcome;
let report: LearningReport;
let records: LearnerRecord[];

beforeAll(async () => {
  server = await startStudyServer([unit]);
  store = await openStore('sqlite::memory:');
  const run = startRun({
    kind: 'learning', units: [unit.id], generators: ['good=openai:gen-good', 'floor=baseline:blank-deck'],
    learners: ['strong=openai:learner-strong', 'examples=baseline:examples', 'broken=openai:learner-broken'],
    puzzleContext: [false, true], frames: ['all', 1], maxAttempts: 1,
  }, { store, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' } });
  outcome = await run.done;
  report = (await learningReport(store, outcome.runId)).report;
  records = (await store.listArtifacts(outcome.runId, 'learning.answers')).map(a => a.value as unknown as LearnerRecord);
}, 180_000);
afterAll(async () => {
  await store.close();
  await server.close();
});

const own = (learner: string, o: Partial<Pick<LearnerRecord, 'puzzleContext' | 'frames' | 'deckVariant'>> & { generator: string }) =>
  records.filter(r => r.learner.alias === learner && r.deck === decks().find(d => d.generator.alias === o.generator)!.trialId
    && (o.puzzleContext === undefined || r.puzzleContext === o.puzzleContext) && (o.frames === undefined || r.frames === o.frames));
let deckRecords: DeckRecord[] = [];
const decks = () => deckRecords;

describe('ablations and baselines of one learning run', () => {
  beforeAll(async () => {
    deckRecords = (await store.listArtifacts(outcome.runId, 'learning.deck')).map(a => a.value as unknown as DeckRecord);
  });

  it('plans 2 decks x 3 learners x 2 puzzle contexts x 2 frame settings; failed calls fail trials, never mark them wrong', () => {
    expect(records).toHaveLength(24);
    expect(outcome.status).toBe('completed');
    // every trial of the broken learner failed: stored as failures with the error, and kept out of every figure
    expect(outcome.failed).toBe(8);
    const broken = records.filter(r => r.learner.alias === 'broken');
    expect(broken.every(r => r.status === 'failed' && r.answers.length === 0 && /scripted failure/.test(r.error ?? ''))).toBe(true);
    expect(report.failures.learnerTrials).toBe(8);
    expect(report.ablations.learners.filter(l => l.learner === 'broken').every(l => l.pre.n === 0 && l.gain.mean === null)).toBe(true);
  });

  it('baseline:blank-deck and baseline:examples need no model: no call is stored for them', async () => {
    const calls = await store.listCalls(outcome.runId);
    const floorDeck = decks().find(d => d.generator.alias === 'floor')!;
    expect(floorDeck.status === 'ok' && floorDeck.slides.length).toBe(1);
    expect(calls.some(c => c.trialId === floorDeck.trialId)).toBe(false);
    const examples = records.filter(r => r.learner.alias === 'examples');
    expect(calls.some(c => examples.some(r => r.trialId === c.trialId))).toBe(false);
    // it answers from the examples alone, the same before and after any deck: no gain
    expect(report.ablations.learners.filter(l => l.learner === 'examples').every(l => l.gain.mean === 0)).toBe(true);
    expect(report.generators.floor!.baseline).toBe(true);
  });

  it('a sample of k frames studies only k slides, and here learns less than all slides', () => {
    const all = own('strong', { generator: 'good', frames: 'all', puzzleContext: false })[0]!;
    const one = own('strong', { generator: 'good', frames: 1, puzzleContext: false })[0]!;
    expect(all.studied).toEqual([1, 2, 3]);
    expect(one.studied).toEqual([1]);
    const [allRow, oneRow] = report.ablations.frames;
    expect(allRow!.frames).toBe('all');
    expect(oneRow!.frames).toBe(1);
    expect(allRow!.post.mean!).toBeGreaterThan(oneRow!.post.mean!);
  });

  it('with puzzle context on, test contexts hold the puzzle examples and still no answer', async () => {
    const on = new Set(records.filter(r => r.puzzleContext && r.learner.alias === 'strong').map(r => r.trialId));
    const calls = (await store.listCalls(outcome.runId)).filter(c => on.has(c.trialId) && c.request.context?.role !== 'learner:study');
    expect(calls.length).toBeGreaterThan(0);
    const example = `${unit.examples[0]!.source} = ${unit.examples[0]!.target}`;
    for (const c of calls) {
      const text = c.request.messages.map(m => m.content).join('\n');
      expect(text).toContain(example);
      const question = /Question: (.*)\n/.exec(text)![1]!;
      const rest = text.replace(`Question: ${question}`, '');
      for (const item of [...unit.source_items, ...unit.near_transfer, ...unit.far_transfer]) {
        for (const a of item.accepted ?? [item.answer]) if (!leaks(a, question)) expect(leaks(a, rest)).toBe(false);
      }
    }
    expect(report.ablations.puzzleContext.map(c => c.puzzleContext)).toEqual([false, true]);
  });
});

describe('a generator answer that is not a deck', () => {
  it('is stored with its reason as a failed generation; its learners and judges have nothing to study or rate', async () => {
    const s = await openStore('sqlite::memory:');
    try {
      const done = await startRun({ kind: 'learning', units: [unit.id], generators: ['bad=openai:gen-refuses'], learners: ['strong=openai:learner-strong'], judges: ['ja=openai:judge-a'] },
        { store: s, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' } }).done;
      const [deck] = (await s.listArtifacts(done.runId, 'learning.deck')).map(a => a.value as unknown as DeckRecord);
      expect(deck).toMatchObject({ status: 'rejected', reason: 'not-html' });
      const raw = await s.getBlob((deck as Extract<DeckRecord, { status: 'rejected' }>).raw.hash);
      expect(Buffer.from(raw!.bytes).toString()).toBe('Sorry, I cannot write slides.');
      const [learner] = (await s.listArtifacts(done.runId, 'learning.answers')).map(a => a.value as unknown as LearnerRecord);
      expect(learner!.status).toBe('no-deck');
      const judgments = await s.listJudgments(done.runId);
      expect(judgments.map(j => j.value)).toEqual([null, null]);
      const r = (await learningReport(s, done.runId)).report;
      expect(r.generators.bad).toMatchObject({ failedGenerations: 1, post: { n: 0, mean: null }, d1: { n: 0 } });
      // only the generator was asked: nothing was sent on the rejected deck's behalf
      expect((await s.listCalls(done.runId)).map(c => c.request.context?.role)).toEqual(['generator']);
    } finally {
      await s.close();
    }
  });
});

describe('a judge whose answers never fit the format', () => {
  it('is asked again with its answer shown back, each attempt a request of its own (none from the cache), then stored unscored', async () => {
    const s = await openStore('sqlite::memory:');
    try {
      const before = server.requests.length;
      const done = await startRun({ kind: 'learning', units: [unit.id], generators: ['good=openai:gen-good'], learners: ['strong=openai:learner-strong'], judges: ['jr=openai:judge-rambles'] },
        { store: s, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' } }).done;
      const judged = (await s.listCalls(done.runId)).filter(c => c.request.context?.role?.startsWith('judge'));
      // D1 and D2, three attempts each, every one sent.
      expect(judged.map(c => c.cached)).toEqual([false, false, false, false, false, false]);
      expect(new Set(judged.map(c => c.requestHash)).size).toBe(6);
      expect(server.requests.slice(before).filter(r => (r.body as { model?: string }).model === 'judge-rambles')).toHaveLength(6);
      const retry = judged.find(c => c.step === 1)!;
      expect(retry.request.messages.at(-2)).toEqual({ role: 'assistant', content: 'A fine deck, I would say about a four overall.' });
      expect((await s.listJudgments(done.runId)).map(j => j.value)).toEqual([null, null]);
    } finally {
      await s.close();
    }
  });
});

describe('error injection as extra deck variants of one run', () => {
  it('stores each variant with what was changed, runs learners and judges on it, and reports the paired drops', async () => {
    const s = await openStore('sqlite::memory:');
    try {
      const done = await startRun({
        kind: 'learning', units: [unit.id], generators: ['good=openai:gen-good'], learners: ['weak=openai:learner-weak'], judges: ['ja=openai:judge-a'],
        inject: ['answers-leaked', 'tables-flattened'],
      }, { store: s, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' } }).done;
      expect(done.status).toBe('completed');
      const decks = new Map((await s.listArtifacts(done.runId, 'learning.deck')).map(a => [(a.value as unknown as DeckRecord).variant, a.value as unknown as DeckRecord & { status: 'ok' }]));
      expect([...decks.keys()].sort()).toEqual(['answers-leaked', 'original', 'tables-flattened']);
      const leaked = decks.get('answers-leaked')!;
      const added = (leaked.change as { changes: Array<{ action: string; items: unknown[] }> }).changes;
      expect(added.every(c => c.action === 'slide-added')).toBe(true);
      expect(added.flatMap(c => c.items)).toHaveLength(unit.near_transfer.length + unit.far_transfer.length);
      expect(leaked.slides.length).toBe(3 + added.length);
      expect(decks.get('tables-flattened')!.metrics.tables).toBe(0);
      expect(decks.get('original')!.metrics.tables).toBe(1);
      // the weak learner copies the leaked answers: every transfer item right, though it learned no rule
      const answers = (await s.listArtifacts(done.runId, 'learning.answers')).map(a => a.value as unknown as LearnerRecord);
      expect(answers).toHaveLength(3);
      const onLeak = answers.find(r => r.deckVariant === 'answers-leaked')!;
      const r = (await learningReport(s, done.runId)).report;
      expect(r.errorInjection.variants).toEqual([
        { kind: 'answers-leaked', family: 'integrity', changed: 1, unchanged: 0 },
        { kind: 'tables-flattened', family: 'visual', changed: 1, unchanged: 0 },
      ]);
      expect(onLeak.answers.filter(a => a.phase === 'near' || a.phase === 'far').every(a => a.answer !== 'unknown')).toBe(true);
      // original: post 1, gain 1, D1 5; leaked (5 slides, no rule learned): post 0, gain 0, D1 2 -> drops 1, 1 and 3 over one deck
      const integrity = r.errorInjection.families.find(f => f.family === 'integrity')!;
      const drop = (dim: string) => integrity.dimensions.find(d => d.dimension === dim)!;
      expect(drop('post')).toMatchObject({ n: 1, meanDrop: 1, targeted: false });
      expect(drop('gain')).toMatchObject({ n: 1, meanDrop: 1 });
      expect(drop('d1')).toMatchObject({ n: 1, meanDrop: 3, targeted: true });
      expect(r.errorInjection.families.find(f => f.family === 'visual')!.dimensions.find(d => d.dimension === 'd3')!.targeted).toBe(true);
    } finally {
      await s.close();
    }
  }, 120_000);
});
