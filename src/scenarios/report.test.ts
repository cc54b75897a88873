import { describe, expect, it } from 'vitest';
import { meanInterval } from '../stats/inference/mean-interval.js';
import { SCENARIO_INTERVAL } from './analysis/estimate.js';
import { scenarioComparisons, type ScenarioModelReport } from './report.js';

function model(name: string, scores: number[], isBaseline = false): { report: ScenarioModelReport; tasks: Map<string, number> } {
  return {
    report: {
      model: name, spec: isBaseline ? 'baseline:script' : `openai:${name}`, isBaseline, score: meanInterval(scores, SCENARIO_INTERVAL), dimensions: {}, fields: {},
      dialogues: { running: 0, ended: scores.length, capped: 0, failed: 0 }, unscored: 0,
    },
    tasks: new Map(scores.map((v, i) => [`task${i}`, v])),
  };
}

describe('scenarioComparisons (swept models of one scenario)', () => {
  it('gives the paired difference and says which is higher when the intervals are apart', () => {
    const a = model('strong', [0.9, 0.85, 0.95, 0.9, 0.88, 0.92, 0.91, 0.87]);
    const b = model('weak', [0.3, 0.35, 0.25, 0.3, 0.32, 0.28, 0.31, 0.27]);
    const [c] = scenarioComparisons([a.report, b.report], new Map([['strong', a.tasks], ['weak', b.tasks]]));
    expect(c).toMatchObject({ a: 'strong', b: 'weak', n: 8, overlap: false });
    expect(c!.difference).toBeCloseTo(0.6, 10);
    expect(c!.low!).toBeGreaterThan(0.5);
    expect(c!.note).toMatch(/strong scores higher/);
  });

  it('warns in plain words when the intervals overlap, leaves baselines out, and needs two shared tasks', () => {
    const a = model('x', [0.5, 0.7, 0.4, 0.6]);
    const b = model('y', [0.55, 0.6, 0.45, 0.65]);
    const base = model('script', [0, 0, 0, 0], true);
    const lonely = { ...model('z', [0.5]), tasks: new Map([['other', 0.5]]) };
    const cs = scenarioComparisons([a.report, b.report, base.report, lonely.report], new Map([['x', a.tasks], ['y', b.tasks], ['script', base.tasks], ['z', lonely.tasks]]));
    expect(cs.map(c => `${c.a}-${c.b}`)).toEqual(['x-y', 'x-z', 'y-z']);
    expect(cs[0]!.note).toBe('the intervals of x and y overlap: this report does not show which is better');
    expect(cs[1]).toMatchObject({ n: 0, difference: null, note: 'fewer than two shared tasks: no comparison' });
  });
});
