import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, type Judgment, type Store, type Trial } from '../../core/index.js';
import { openStore } from '../../store/index.js';
import { analyze } from '../analyze.js';
import { readAnalysisFiles } from '../input/import.js';
import { ratingsFromRun, tableFromRun } from './table.js';

const dir = mkdtempSync(join(tmpdir(), 'paideia-stored-table-'));
const file = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };

/** A run holding dialogues (d1..d6) and two judges' Judgments of them on a rubric with two scaled fields. */
async function judgedRun(store: Store, scores: Record<string, Array<[number, number] | null>>): Promise<string> {
  const runId = 'scn-t';
  const now = new Date().toISOString();
  await store.openRun({ id: runId, kind: 'scenario', createdAt: now, updatedAt: now, status: 'completed', prices: { source: 't', date: '', models: {} }, paideiaVersion: '0', config: { suites: [], itemHashes: [], models: [], repeats: 1, seed: 1, params: {} } });
  const base = { runId, itemHash: 'h', test: 'scenario:x', modelSpec: 'openai:tutor', promptVersion: 'p', seed: 1 } as const;
  const dialogues: Trial[] = [1, 2, 3, 4, 5, 6].map(i => ({ ...base, id: `d${i}`, index: i, itemId: `t${i}`, modelAlias: 'tutor', repeat: 0, kind: 'dialogue' }));
  const judges: Trial[] = [];
  const judgments: Judgment[] = [];
  for (const [judge, list] of Object.entries(scores)) {
    list.forEach((s, i) => {
      const trial: Trial = { ...base, id: `${judge}-${i}`, index: 10 + judges.length, itemId: `t${i + 1}`, modelAlias: judge, modelSpec: `openai:${judge}`, repeat: 0, kind: 'scenario-judge', variant: 'ev1', target: `d${i + 1}` };
      judges.push(trial);
      judgments.push({
        specVersion: 'paideia.judgment.v1', runId, trialId: trial.id, targetTrialId: trial.target!, rater: { alias: judge, spec: trial.modelSpec }, promptVariant: 'ev1', repeat: 0,
        fields: s ? { clarity: s[0], detail: { accuracy: s[1] } } : {}, scales: { clarity: { min: 1, max: 5 }, 'detail.accuracy': { min: 1, max: 5 } },
        value: s ? (s[0] + s[1]) / 10 : null, ...(s ? {} : { reason: 'the answer did not fit format' }), callSeq: null, producer: { name: 'scenario-judge', version: 'ev1', args: {} },
      });
    });
  }
  await store.saveTrials([...dialogues, ...judges]);
  await store.saveJudgments(judgments);
  return runId;
}

const SCORES: Record<string, Array<[number, number] | null>> = {
  ja: [[5, 4], [2, 3], [4, 4], [1, 2], null, [3, 5]],
  jb: [[4, 4], [2, 2], [5, 4], [2, 2], [3, 2], [3, 4]],
};

describe('ratings from stored Judgments', () => {
  it('reads one row per judgment and scaled field, unscored judgments kept unscored with their reason', async () => {
    const store = await openStore('sqlite::memory:');
    const runId = await judgedRun(store, SCORES);
    const r = await ratingsFromRun(store, runId);
    expect([...r.scales.keys()].sort()).toEqual(['clarity', 'detail.accuracy']);
    expect(r.ratings).toHaveLength(24);
    expect(r.ratings.find(x => x.rater === 'ja' && x.observation === 't1/tutor/0' && x.item === 'detail.accuracy')).toEqual({ observation: 't1/tutor/0', rater: 'ja', prompt: 'ev1', repeat: '0', item: 'detail.accuracy', score: 4 });
    expect(r.ratings.filter(x => x.score === null)).toEqual([
      { observation: 't5/tutor/0', rater: 'ja', prompt: 'ev1', repeat: '0', item: 'clarity', score: null, unscoredReason: 'the answer did not fit format' },
      { observation: 't5/tutor/0', rater: 'ja', prompt: 'ev1', repeat: '0', item: 'detail.accuracy', score: null, unscoredReason: 'the answer did not fit format' },
    ]);
    await store.close();
  });

  it('gives the same analysis as the CSV path on the same ratings and experts', async () => {
    const store = await openStore('sqlite::memory:');
    const runId = await judgedRun(store, SCORES);
    const experts = file('experts.csv', ['observation,item,expert,score', ...[5, 2, 4, 1, 3, 4].flatMap((v, i) => [`t${i + 1}/tutor/0,clarity,e1,${v}`, `t${i + 1}/tutor/0,detail.accuracy,e1,${Math.max(1, v - 1)}`])].join('\n'));
    const fromRun = analyze(await tableFromRun(store, runId, { experts }), { resamples: 200, shareResamples: 100 });
    const ratings = file('ratings.csv', ['observation,item,rater,prompt,score,repeat', ...Object.entries(SCORES).flatMap(([judge, list]) => list.flatMap((s, i) =>
      [`t${i + 1}/tutor/0,clarity,${judge},ev1,${s ? s[0] : ''},0`, `t${i + 1}/tutor/0,detail.accuracy,${judge},ev1,${s ? s[1] : ''},0`]))].join('\n'));
    const scales = file('scales.csv', 'item,min,max\nclarity,1,5\ndetail.accuracy,1,5\n');
    const fromCsv = analyze(readAnalysisFiles({ ratings, experts, scales }), { resamples: 200, shareResamples: 100 });
    expect(fromRun.alignment).toEqual(fromCsv.alignment);
    expect(fromRun.dependence).toEqual(fromCsv.dependence);
    expect(fromRun.alignment.find(a => a.rater === 'ja' && a.item === 'clarity')!.n).toBe(5);
    await store.close();
  });

  it('names the line of an expert row whose observation or item the run does not have', async () => {
    const store = await openStore('sqlite::memory:');
    const runId = await judgedRun(store, SCORES);
    const experts = file('bad-experts.csv', 'observation,item,expert,score\nt1/tutor/0,clarity,e1,4\nt9/tutor/0,clarity,e1,4\nt1/tutor/0,warmth,e1,3\nt2/tutor/0,clarity,e1,\n');
    let error: unknown;
    try { await tableFromRun(store, runId, { experts }); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues;
    expect(issues.map(i => [i.line, i.field])).toEqual([[3, 'observation'], [4, 'item']]);
    expect(issues[0]!.message).toMatch(/"t9\/tutor\/0" is not an observation of run scn-t .*paideia validity template --run scn-t/);
    expect(issues[1]!.message).toMatch(/item "warmth" is not rated in run scn-t \(its items: clarity, detail.accuracy\)/);
    await store.close();
  });

  it('takes the expert scores imported into the run (human:<rater>) when no experts file is given', async () => {
    const store = await openStore('sqlite::memory:');
    const runId = await judgedRun(store, SCORES);
    const values = [5, 2, 4, 1, 3, 4];
    await store.saveScores(values.map((v, i) => ({
      runId, trialId: `d${i + 1}`, scorer: { name: 'human:ann', version: 'ev1', args: {} }, value: v / 5,
      // A value off the scale is left out, not clamped.
      details: { rater: 'ann', fields: { clarity: v, 'detail.accuracy': i === 0 ? 9 : Math.max(1, v - 1) } },
    })));
    const stored = await tableFromRun(store, runId, {});
    expect(stored.experts).toHaveLength(11);
    expect(stored.experts.find(e => e.observation === 't3/tutor/0' && e.item === 'clarity')).toEqual({ observation: 't3/tutor/0', item: 'clarity', expert: 'ann', score: 4 });
    const experts = file('ann.csv', ['observation,item,expert,score', ...values.flatMap((v, i) => [`t${i + 1}/tutor/0,clarity,ann,${v}`, ...(i === 0 ? [] : [`t${i + 1}/tutor/0,detail.accuracy,ann,${Math.max(1, v - 1)}`])])].join('\n'));
    const o = { resamples: 200, shareResamples: 100 };
    expect(analyze(stored, o).alignment).toEqual(analyze(await tableFromRun(store, runId, { experts }), o).alignment);
    await store.close();
  });
});
