import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cronbachAlpha, icc } from '../../stats/agreement/index.js';
import { openStore } from '../../store/index.js';
import { importHumanScores } from '../blind/import.js';
import type { BlindKey } from '../blind/export.js';
import { writeBlindExport } from '../blind/write.js';
import { formatCsv } from '../csv.js';
import { scenarioReport } from '../report.js';
import { analysisRun, CLAUDE_TUTOR, GPT_TUTOR } from '../testing/analysis-run.js';
import { scenarioDir } from '../testing/fixtures.js';

/** Expert values [a, b] (0..10) by tutor and task. */
const EXPERTS: Record<string, Record<string, Record<string, [number, number]>>> = {
  anna: { [GPT_TUTOR]: { t1: [6, 5], t2: [9, 8] }, [CLAUDE_TUTOR]: { t1: [5, 6], t2: [7, 6] } },
  ben: { [GPT_TUTOR]: { t1: [7, 6], t2: [8, 9] }, [CLAUDE_TUTOR]: { t1: [4, 5], t2: [6, 5] } },
};

async function withExperts(raters: string[]) {
  const store = await openStore('sqlite::memory:');
  const runId = await analysisRun(store);
  const dir = scenarioDir({});
  const w = await writeBlindExport(store, runId, { format: 'csv', out: join(dir, 'blind.csv'), seed: 5 });
  const key = JSON.parse(readFileSync(w.keyFile, 'utf8')) as BlindKey;
  for (const rater of raters) {
    const file = join(dir, `${rater}.csv`);
    writeFileSync(file, formatCsv([['id', 'a', 'b'], ...key.items.map(i => [i.id, ...EXPERTS[rater]![i.spec]![i.taskId]!.map(String)])]));
    await importHumanScores(store, runId, { file, rater });
  }
  const report = await scenarioReport(store, runId);
  await store.close();
  return report;
}

describe('judge-human agreement and expert reliability', () => {
  it('match the statistics computed by hand and by the stats functions on the same data', async () => {
    const report = await withExperts(['anna', 'ben']);
    const human = report.human!;
    expect(human.raters).toEqual([{ rater: 'anna', outputs: 4 }, { rater: 'ben', outputs: 4 }]);
    // Dimension A per dialogue (gpt t1, gpt t2, claude t1, claude t2):
    // panel = mean over judges of each judge's repeat mean: .6, .75, .65, .65; experts' mean: .65, .85, .45, .65.
    const panelA = [0.6, 0.75, 0.65, 0.65];
    const expertA = [0.65, 0.85, 0.45, 0.65];
    const rowA = human.agreement.find(a => a.judge === 'panel' && a.dimension === 'A')!;
    expect(rowA.n).toBe(4);
    // By hand: pairs (1,2) C, (1,3) D, (1,4) tied in expert, (2,3) C, (2,4) C, (3,4) tied in panel:
    // tau-b = (3 - 1) / sqrt((3 + 1 + 1)(3 + 1 + 1)) = 0.4.
    expect(rowA.kendallTauB).toBeCloseTo(0.4, 12);
    // p with ties (normal approximation, tie-corrected variance as scipy): one tied pair on each side,
    // var = (4*3*13 - 2*1*9 - 2*1*9) / 18 + (2 * 2) / (2*4*3) = 120/18 + 1/6 = 41/6, z = 2 / sqrt(41/6),
    // p = erfc(z / sqrt 2) = erfc(sqrt(12/41)) = 0.44421673013860674 (scipy.stats.kendalltau gives the same).
    expect(rowA.kendallP).toBeCloseTo(0.44421673013860674, 12);
    const iccA = icc(panelA.map((p, i) => [p, expertA[i]!])).byType.ICC2;
    expect(rowA.icc).toBeCloseTo(iccA.icc, 12);
    expect(rowA.iccLow).toBeCloseTo(iccA.ciLow, 12);
    expect(rowA.iccHigh).toBeCloseTo(iccA.ciHigh, 12);
    // Judge minus expert: -.05, -.10, .20, 0.
    expect(rowA.meanDeviation.mean).toBeCloseTo(0.0125, 12);
    expect(rowA.meanDeviation.n).toBe(4);

    // The weighted score is the mean of A and B here.
    // Experts' weighted score (A + B) / 2: .6, .85, .5, .6 (B: .55, .85, .55, .55).
    const rowS = human.agreement.find(a => a.judge === 'panel' && a.dimension === null)!;
    // Pairs vs panel .6 .75 .65 .65: (1,2) C, (1,3) D, (1,4) tied in expert, (2,3) C, (2,4) C, (3,4) tied in panel:
    // tau-b = (3 - 1) / sqrt(5 * 5) = 0.4.
    expect(rowS.kendallTauB).toBeCloseTo(0.4, 12);
    // Panel minus expert: 0, -.1, .15, .05; mean .1 / 4.
    expect(rowS.meanDeviation.mean).toBeCloseTo(0.025, 12);

    // One judge alone: j_openai's A per dialogue is its repeat mean: .7, .9, .5, .5.
    const jo = human.agreement.find(a => a.judge === 'j_openai' && a.dimension === 'A')!;
    // Against experts' A .65 .85 .45 .65: (1,2) C, (1,3) C, (1,4) tied in expert, (2,3) C, (2,4) C, (3,4) tied in the judge:
    // tau-b = 4 / sqrt(5 * 5) = 0.8.
    expect(jo.kendallTauB).toBeCloseTo(0.8, 12);
    expect(jo.meanDeviation.mean).toBeCloseTo((0.05 + 0.05 + 0.05 - 0.15) / 4, 12);
    expect(human.agreement.map(a => `${a.judge}/${a.dimension}`)).toEqual(['panel/null', 'panel/A', 'panel/B', 'j_openai/null', 'j_openai/A', 'j_openai/B', 'j_anthropic/null', 'j_anthropic/A', 'j_anthropic/B']);

    // Reliability, experts as items. A: anna .6 .9 .5 .7, ben .7 .8 .4 .6:
    // item variances .0875/3 each, totals 1.3 1.7 .9 1.3 with variance .32/3, alpha = 2 (1 - .175/.32) = .90625.
    const relA = human.reliability.find(r => r.dimension === 'A')!;
    expect(relA).toMatchObject({ n: 4, k: 2 });
    expect(relA.alpha).toBeCloseTo(0.90625, 12);
    const alphaA = cronbachAlpha([[0.6, 0.7], [0.9, 0.8], [0.5, 0.4], [0.7, 0.6]]);
    expect(relA.low).toBeCloseTo(alphaA.ciLow, 12);
    expect(relA.high).toBeCloseTo(alphaA.ciHigh, 12);
  });

  it('with one expert there is agreement but no reliability, and the report says why', async () => {
    const report = await withExperts(['anna']);
    expect(report.human!.agreement.find(a => a.judge === 'panel' && a.dimension === 'A')!.n).toBe(4);
    expect(report.human!.reliability.every(r => r.alpha === null && r.k === 1 && r.note === 'needs at least two experts')).toBe(true);
  });
});
