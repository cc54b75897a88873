import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dStudyGrid } from './analyses/d-study.js';
import type { Decomposition } from './analyses/shares.js';
import { analyze, readAnalysisFiles } from './index.js';

// Reference values: __fixtures__/gen_validity.py (numpy/scipy), on the study it writes to __fixtures__/small.
const dir = fileURLToPath(new URL('./__fixtures__/small/', import.meta.url));
const ref = JSON.parse(readFileSync(new URL('./__fixtures__/reference.json', import.meta.url), 'utf8'));
const table = readAnalysisFiles({
  ratings: `${dir}ratings.csv`, experts: `${dir}experts.csv`, scales: `${dir}scales.csv`,
  outcomes: `${dir}outcomes.csv`, observations: `${dir}observations.csv`, raterWeights: `${dir}weights.csv`,
});
const report = analyze(table, { resamples: 300, shareResamples: 150, seed: 11 });
const TOL = 1e-9;
const near = (got: number | null | undefined, want: number, what: string) =>
  expect(Math.abs((got ?? NaN) - want), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(TOL * Math.max(1, Math.abs(want)));
type Corr = { tau: number; pValue: number; r: number; rP: number; n: number };

describe('validity analyze against numpy/scipy reference values (1e-9)', () => {
  it('alignment: tau-b, p-values and Pearson with the experts\' mean and, per unit, with the outcome', () => {
    expect(report.alignment).toHaveLength(ref.alignment.length);
    for (const want of ref.alignment as { rater: string; prompt: string; item: string; experts: Corr; outcome: Corr }[]) {
      const got = report.alignment.find(a => a.rater === want.rater && a.prompt === want.prompt && a.item === want.item)!;
      const at = `${want.rater}/${want.prompt}/${want.item}`;
      expect(got.n, at).toBe(want.experts.n);
      expect(got.nUnits, at).toBe(want.outcome.n);
      near(got.tauExperts?.tau, want.experts.tau, `${at} tau experts`);
      near(got.tauExperts?.pValue, want.experts.pValue, `${at} p experts`);
      near(got.pearsonExperts?.r, want.experts.r, `${at} r experts`);
      near(got.pearsonExperts?.pValue, want.experts.rP, `${at} r p experts`);
      near(got.tauOutcome?.tau, want.outcome.tau, `${at} tau outcome`);
      near(got.tauOutcome?.pValue, want.outcome.pValue, `${at} p outcome`);
      near(got.pearsonOutcome?.r, want.outcome.r, `${at} r outcome`);
    }
  });

  it('baselines: the experts against the outcome', () => {
    for (const want of ref.baselines as { item: string; outcome: Corr }[]) {
      const got = report.baselines.find(b => b.kind === 'experts' && b.item === want.item)!;
      near(got.tauOutcome?.tau, want.outcome.tau, `experts ${want.item}`);
      expect(got.tauExperts).toBeNull();
    }
  });

  it('dependence: bias-corrected dCor^2 within each item', () => {
    for (const { item, matrix } of report.dependence.withinItem) {
      const want = ref.dependence[item] as { labels: string[]; values: number[][] };
      expect(matrix.labels).toEqual(want.labels);
      matrix.values.forEach((row, i) => row.forEach((v, j) => near(v, want.values[i]![j]!, `${item} [${i},${j}]`)));
    }
  });

  it('robustness: Theil-Sen, Siegel and the quartile Welch test of the outcome on the unit-mean rating', () => {
    for (const want of ref.robustness as { rater: string; prompt: string; item: string; theilSen: number[]; siegel: number[]; quartile: Record<string, number> | null }[]) {
      const got = report.robustness.find(r => r.rater === want.rater && r.prompt === want.prompt && r.item === want.item)!;
      const at = `${want.rater}/${want.prompt}/${want.item}`;
      [got.theilSen!.slope, got.theilSen!.intercept, got.theilSen!.low95, got.theilSen!.high95].forEach((v, k) => near(v, want.theilSen[k]!, `${at} theil-sen ${k}`));
      near(got.siegel!.slope, want.siegel[0]!, `${at} siegel`);
      near(got.siegel!.intercept, want.siegel[1]!, `${at} siegel intercept`);
      if (want.quartile === null) expect(got.quartile).toBeNull();
      else for (const k of ['difference', 'low95', 'high95', 'pValue', 'nTop', 'nBottom'] as const) near(got.quartile![k], want.quartile[k]!, `${at} quartile ${k}`);
    }
  });

  it('decomposition: the missing cell is named, its observation dropped, ANOVA-EMS components match', () => {
    const d = report.decomposition;
    expect(d.design.fullyCrossed).toBe(false);
    expect(d.design.missing).toEqual([{ observation: 'o05', item: 'uptake', rater: 'rc', prompt: 'cot' }]);
    expect(d.design.droppedObservations).toEqual(['o05']);
    expect(d.squaredError!.levels).toEqual({ observation: ref.decomposition.keptObservations.length, item: 2, rater: 3, prompt: 2 });
    for (const measure of ['squaredError', 'signedError', 'ratings'] as const) {
      const got = d[measure]!;
      expect(Object.keys(got.components)).toEqual(Object.keys(ref.decomposition[measure]));
      for (const [key, want] of Object.entries(ref.decomposition[measure] as Record<string, { anovaEstimate: number; anovaShare: number }>)) {
        near(got.components[key]!.anovaEstimate, want.anovaEstimate, `${measure} ${key}`);
        near(got.components[key]!.anovaShare, want.anovaShare, `${measure} ${key} share`);
      }
    }
    for (const [key, want] of Object.entries(ref.decomposition.expertsSquaredError as Record<string, { anovaEstimate: number }>)) {
      near(d.experts!.squaredError!.components[key]!.anovaEstimate, want.anovaEstimate, `experts ${key}`);
    }
  });

  it('D-study grid, both conventions, from the ANOVA components (negatives as 0)', () => {
    const ratings = report.decomposition.ratings!;
    const anovaOnly: Decomposition = { ...ratings, components: Object.fromEntries(Object.entries(ratings.components).map(([k, c]) => [k, { ...c, estimate: Math.max(0, c.anovaEstimate) }])) };
    const grid = dStudyGrid(anovaOnly).grid;
    for (const want of ref.dStudy as { convention: string; raters: number; prompts: number; eRho2: number; phi: number }[]) {
      const got = grid.find(g => g.convention === want.convention && g.raters === want.raters && g.prompts === want.prompts)!;
      near(got.eRho2, want.eRho2, `${want.convention} ${want.raters}x${want.prompts} E rho2`);
      near(got.phi, want.phi, `${want.convention} ${want.raters}x${want.prompts} Phi`);
    }
  });

  it('ensembles: expertise-weighted and unanimous-vote scores against the experts', () => {
    for (const want of ref.ensembles as { kind: string; prompt: string; item: string; scored?: number; experts: Corr }[]) {
      const got = report.ensembles.rows.find(e => e.kind === want.kind && e.prompt === want.prompt && e.item === want.item)!;
      if (want.scored !== undefined) expect(got.scored).toBe(want.scored);
      if (want.experts.n < 4) expect(got.tauExperts).toBeNull();
      else near(got.tauExperts!.tau, want.experts.tau, `${want.kind} ${want.prompt} ${want.item}`);
    }
  });
});

describe('validity analyze: intervals and seeds', () => {
  it('every tau lies in its 95% interval only loosely, but 90% sits inside 95% and p-values are in [0, 1]', () => {
    for (const a of report.alignment) {
      for (const t of [a.tauExperts, a.tauOutcome]) {
        if (!t) continue;
        expect(t.low95).toBeLessThanOrEqual(t.low90);
        expect(t.high90).toBeLessThanOrEqual(t.high95);
        expect(t.low90).toBeLessThanOrEqual(t.high90);
        expect(t.pValue).toBeGreaterThanOrEqual(0);
        expect(t.pValue).toBeLessThanOrEqual(1);
      }
    }
  });
  it('the same seed reproduces every interval; another seed moves them', () => {
    const again = analyze(table, { resamples: 300, shareResamples: 150, seed: 11 });
    expect(again.alignment).toEqual(report.alignment);
    expect(again.decomposition).toEqual(report.decomposition);
    const other = analyze(table, { resamples: 300, shareResamples: 150, seed: 12 });
    expect(other.alignment.map(a => a.tauExperts?.low90)).not.toEqual(report.alignment.map(a => a.tauExperts?.low90));
    expect(other.alignment.map(a => a.tauExperts?.tau)).toEqual(report.alignment.map(a => a.tauExperts?.tau));
  });
  it('shares sum to 1 and the developer-controlled share is the sum over components with rater or prompt', () => {
    const d = report.decomposition.squaredError!;
    const shares = Object.entries(d.components);
    expect(shares.reduce((s, [, c]) => s + c.share, 0)).toBeCloseTo(1, 12);
    const dev = shares.filter(([k]) => /rater|prompt/.test(k)).reduce((s, [, c]) => s + c.share, 0);
    expect(d.controlled.share).toBeCloseTo(dev, 12);
    expect(d.evidence.share).toBeCloseTo(1 - dev, 12);
    expect(d.controlled.low95).toBeLessThanOrEqual(d.controlled.high95);
  });
});
