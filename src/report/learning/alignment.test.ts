import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type Store } from '../../core/index.js';
import { collectStudy, type StudyData } from '../../learning/report/collect.js';
import { deckRatings } from '../../learning/report/deck-ratings.js';
import { loadShippedUnit, startStudyServer } from '../../learning/testing/study-server.js';
import type { FakeServer } from '../../providers/testing/fake-servers.js';
import { startRun } from '../../runs.js';
import { kendallTauB } from '../../stats/index.js';
import { openStore } from '../../store/index.js';
import { judgeGainAlignment } from './alignment.js';
import { alignmentMarkdown } from './alignment-markdown.js';
import { learningTable } from './validity.js';

// Two units with one source item each: the strong learner gets it right after the three-slide
// deck of gen-good and wrong after gen-poor's, and never before; the judge rates gen-good's decks 5
// and gen-poor's 2 on every sub-dimension (src/learning/testing/study-server.ts).
const UNITS = ['udihe-possession', 'chickasaw-case-and-person'];
let server: FakeServer;
let store: Store;
let data: StudyData;
const dir = mkdtempSync(join(tmpdir(), 'paideia-learning-alignment-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

beforeAll(async () => {
  server = await startStudyServer(UNITS.map(loadShippedUnit));
  store = await openStore('sqlite::memory:');
  const done = await startRun({
    kind: 'learning', units: UNITS, generators: ['good=openai:gen-good', 'poor=openai:gen-poor'], learners: ['strong=openai:learner-strong'],
    judges: ['ja=openai:judge-a'], inject: ['tables-flattened'], maxAttempts: 1,
  }, { store, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' } }).done;
  data = await collectStudy(store, done.runId);
}, 180_000);
afterAll(async () => {
  await store.close();
  await server.close();
});

describe('a learning run as a validity study', () => {
  it('has one observation per deck as generated, D1/D2 per judge, and the deck gain as its outcome', () => {
    const d = deckRatings(data);
    expect(d.decks.map(x => `${x.id} ${x.gain} ${x.learnerTrials}`)).toEqual([
      'chickasaw-case-and-person/good 1 1', 'chickasaw-case-and-person/poor 0 1', 'udihe-possession/good 1 1', 'udihe-possession/poor 0 1',
    ]);
    // the judge rated the injected variant too; those ratings are not of the decks the gains belong to
    expect(data.judgments.length).toBeGreaterThan(d.ratings.length);
    expect(d.ratings).toHaveLength(4 * 2);
    expect(d.ratings.filter(r => r.observation.endsWith('/good')).every(r => r.score === 5)).toBe(true);
    expect(d.ratings.filter(r => r.observation.endsWith('/poor')).every(r => r.score === 2)).toBe(true);
    expect(new Set(d.ratings.map(r => `${r.rater}|${r.prompt}`))).toEqual(new Set(['ja|judge-1']));
    const { table, outcome } = learningTable(data, {});
    expect(outcome).toBe('gain');
    expect([...table.outcomes]).toEqual([['chickasaw-case-and-person/good', 1], ['chickasaw-case-and-person/poor', 0], ['udihe-possession/good', 1], ['udihe-possession/poor', 0]]);
    expect(table.baselines.map(b => b.name)).toEqual(expect.arrayContaining(['d3.slides', 'd3.tables']));
  });

  it("gives each judge x D-item tau-b with gain, its intervals, Pearson r and the permutation p; tauExperts absent, said plainly", () => {
    const v = judgeGainAlignment(data);
    expect(v.alignment.map(a => `${a.judge}/${a.item}`)).toEqual(['ja/d1', 'ja/d2']);
    const expected = kendallTauB([5, 2, 5, 2], [1, 0, 1, 0]);
    for (const a of v.alignment) {
      expect(a.n).toBe(4);
      expect(a.tauOutcome!.tau).toBeCloseTo(expected.tau, 12);
      expect(a.tauOutcome!.pValue).toBeCloseTo(expected.pValue, 12);
      expect(a.tauOutcome!.low90).toBeLessThanOrEqual(a.tauOutcome!.tau);
      expect(a.pearsonOutcome!.r).toBeCloseTo(1, 12);
      // two 5s and two 2s over 4 decks: 2 of the 6 arrangements give |tau| = 1, so p is near 1/3
      expect(a.permutationOutcome!.pValue).toBeGreaterThan(0.2);
      expect(a.tauExperts).toBeNull();
    }
    expect(v.minimumDecks).toBe(4);
    expect(v.notes.join('\n')).toMatch(/No expert scores are attached, so tau with experts is absent/);
  });

  it('says when there are too few decks, no gains or no judges, and computes nothing it cannot', () => {
    const two = { ...data, decks: new Map([...data.decks].filter(([, r]) => r[0]!.unit === UNITS[0])) };
    const few = judgeGainAlignment(two);
    expect(few.decksWithGain).toBe(2);
    expect(few.alignment.every(a => a.tauOutcome === null && a.n === 2)).toBe(true);
    expect(few.notes.join('\n')).toMatch(/Too few decks: tau with gain needs at least 4 decks with both a rating and a gain; this run has 2/);

    // Four decks with a gain, but the judge's D1 unscored on three of them: that row says why it has no tau.
    const d1 = (j: StudyData['judgments'][number]) => deckRatings({ ...data, judgments: [j] }).ratings[0]?.item === 'd1';
    let left = 3;
    const mostlyUnscored = data.judgments.map(j => (d1(j) && left-- > 0 ? { ...j, value: null, reason: 'no rating in the answer' } : j));
    const sparse = judgeGainAlignment({ ...data, judgments: mostlyUnscored });
    expect(sparse.decksWithGain).toBe(4);
    const row = sparse.alignment.find(a => a.item === 'd1')!;
    expect(row.n).toBeLessThan(4);
    expect(row.tauOutcome).toBeNull();
    expect(sparse.alignment.find(a => a.item === 'd2')!.tauOutcome).not.toBeNull();
    expect(sparse.notes.join('\n')).toMatch(new RegExp(`ja \\(judge-1\\) on d1: only ${row.n} deck\\(s\\) with both a scored rating and a gain \\(tau needs 4\\)`));
    expect(sparse.notes.join('\n')).not.toMatch(/on d2: only/);

    // Four decks, but the judge gives each the same rating: no tau, and the note says why (not "too few").
    const firstD1 = data.judgments.find(d1)!;
    const flat = data.judgments.map(j => (d1(j) ? { ...j, fields: firstD1.fields, value: firstD1.value } : j));
    const tied = judgeGainAlignment({ ...data, judgments: flat });
    expect(tied.alignment.map(a => [a.item, a.n, a.tauOutcome?.tau])).toEqual([['d1', 4, NaN], ['d2', 4, expect.any(Number)]]);
    expect(tied.notes.join('\n')).toMatch(/ja \(judge-1\) on d1: over its 4 decks the ratings or the gains are all the same, so no two decks are ordered and tau-b is not defined/);
    expect(tied.notes.join('\n')).not.toMatch(/only 4 deck/);

    // Every deck gained the same: said once, of the learners, not blamed on a judge whose ratings vary.
    const same = judgeGainAlignment({ ...data, learners: data.learners.map(l => ({ ...l, scores: { ...l.scores, pretest: 0, posttest: 0.5 } })) });
    expect(same.alignment.every(a => a.n === 4 && Number.isNaN(a.tauOutcome?.tau))).toBe(true);
    expect(same.notes.filter(n => /gain/.test(n))).toEqual([
      "Every deck's gain is the same (0.5), so no two decks are ordered by gain and tau-b with gain is not defined for any judge or D3 metric: the learners' tests did not tell the decks apart (more learners, test items or units may).",
    ]);

    const noGains = judgeGainAlignment({ ...data, learners: [] });
    expect(noGains.alignment.every(a => a.tauOutcome === null && a.n === 0)).toBe(true);
    expect(noGains.notes.join('\n')).toMatch(/No learner gains/);

    const noJudges = { ...data, judgments: [], design: { ...data.design, judges: [] } };
    expect(judgeGainAlignment(noJudges).notes).toEqual(['The run has no D1/D2 judges, so there is no rating to align with learner gain; run the study with --judge NAME=SPEC.']);
    // Nothing was resampled: no count or seed is given for it (the JSON report said 0 and 0).
    expect([judgeGainAlignment(noJudges).resamples, judgeGainAlignment(noJudges).seed]).toEqual([null, null]);
    // Its section says why, and no method that never ran ("0 resamples, seed 0").
    const section = alignmentMarkdown(judgeGainAlignment(noJudges), data.runId).join('\n');
    expect(section).toContain('- The run has no D1/D2 judges');
    expect(section).not.toMatch(/resamples|shuffles|seed/);
    expect(() => learningTable(noJudges, {})).toThrow(/holds no D1\/D2 judgments to analyse; run the study with at least one --judge/);
  });

  it('takes an outcomes file over the gains, and checks expert rows against the decks', () => {
    const outcomes = file('outcomes.csv', 'unit,outcome\nudihe-possession/good,0.2\nudihe-possession/poor,0.9\n');
    const { table, outcome } = learningTable(data, { outcomes });
    expect(outcome).toEqual({ file: outcomes });
    expect([...table.outcomes]).toEqual([['udihe-possession/good', 0.2], ['udihe-possession/poor', 0.9]]);

    const typo = file('typo.csv', 'unit,outcome\nudihe-possession/good,0.2\nudihe/good,0.9\n');
    expect(() => learningTable(data, { outcomes: typo })).toThrow(/typo\.csv:3, field "unit": \(column 1\) "udihe\/good" is not a unit of learning run lrn-[0-9a-f]+; its units are its decks, named <unit>\/<generator>: chickasaw-case-and-person\/good/);

    const experts = file('experts.csv', 'observation,item,expert,score\nudihe-possession/good,d1,e1,4\nudihe-possession/gen-good,d1,e1,4\n');
    let error: unknown;
    try { learningTable(data, { experts }); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as ConfigError).message)).toMatch(/experts\.csv:3, field "observation": \(column 1\) "udihe-possession\/gen-good" is not an observation of learning run lrn-.*named <unit>\/<generator>$/);

    const good = file('experts-ok.csv', 'observation,item,expert,score\nudihe-possession/good,d1,e1,4\nudihe-possession/poor,d1,e1,1\nchickasaw-case-and-person/good,d1,e1,5\nchickasaw-case-and-person/poor,d1,e1,3\n');
    const v = judgeGainAlignment(data, { experts: good });
    expect(v.alignment.find(a => a.item === 'd1')!.tauExperts!.tau).toBeCloseTo(kendallTauB([5, 2, 5, 2], [5, 3, 4, 1]).tau, 12);
    expect(v.alignment.find(a => a.item === 'd2')!.tauExperts).toBeNull();
  });
});
