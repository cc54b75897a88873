import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { parseModelSpec } from '../../core/model-spec.js';
import { parseScenario } from '../load.js';
import { scenarioReport } from '../report.js';
import { issuesOf } from '../testing/fixtures.js';
import { ANALYSIS_SCENARIO, analysisRun } from '../testing/analysis-run.js';

describe('judge analysis on constructed judgments', () => {
  it('gives each judge its repeat variance, mean score and self-preference, as computed by hand', async () => {
    const store = await openStore('sqlite::memory:');
    const report = await scenarioReport(store, await analysisRun(store));
    const [jo, ja] = report.judges;
    // j_openai scores (a/10) per dialogue and repeat: gpt t1 .8 .6, t2 .9 .9; claude t1 .5 .5, t2 .4 .6.
    expect(jo).toMatchObject({ judge: 'j_openai', spec: 'openai:house-judge-v1', family: 'openai', familySource: 'config', judgments: 8, unscored: 0 });
    expect(jo!.repeatVariance.outputs).toBe(4);
    // Variances .02, 0, 0, .02 (n - 1 denominator).
    expect(jo!.repeatVariance.mean).toBeCloseTo(0.01, 12);
    expect(jo!.repeatVariance.max).toBeCloseTo(0.02, 12);
    expect(jo!.repeatVariance.dimensions.A).toBeCloseTo(0.01, 12);
    expect(jo!.meanScore.mean).toBeCloseTo((0.7 + 0.9 + 0.5 + 0.5) / 4, 12);
    expect(jo!.meanScore.n).toBe(4);
    // Panel (mean of judges' repeat means): gpt .6, .75; claude .65, .65.
    const sp = jo!.selfPreference;
    expect(sp.family).toBe('openai');
    expect(sp.own.outputs).toBe(2);
    expect(sp.own.judgeMean).toBeCloseTo(0.8, 12);
    expect(sp.own.panelMean).toBeCloseTo(0.675, 12);
    expect(sp.own.delta.mean).toBeCloseTo(0.125, 12);
    expect(sp.own.deltaOthers!.mean).toBeCloseTo(0.25, 12);
    expect(sp.other.delta.mean).toBeCloseTo(-0.15, 12);
    expect(sp.other.deltaOthers!.mean).toBeCloseTo(-0.3, 12);
    expect(sp.excess).toBeCloseTo(0.275, 12);
    expect(sp.excessOthers).toBeCloseTo(0.55, 12);

    expect(ja).toMatchObject({ judge: 'j_anthropic', spec: 'anthropic:claude-sonnet-4', family: 'anthropic', familySource: 'table' });
    expect(ja!.repeatVariance.mean).toBeCloseTo(0.005, 12);
    expect(ja!.selfPreference.own.delta.mean).toBeCloseTo(0.15, 12);
    expect(ja!.selfPreference.other.delta.mean).toBeCloseTo(-0.125, 12);
    expect(ja!.selfPreference.own.deltaOthers!.mean).toBeCloseTo(0.3, 12);
    expect(ja!.selfPreference.other.deltaOthers!.mean).toBeCloseTo(-0.25, 12);
    expect(ja!.selfPreference.excess).toBeCloseTo(0.275, 12);
    expect(report.human).toBeNull();
    await store.close();
  });

  it('without the family key an unknown judge model is only its own family, so it has no own outputs', async () => {
    const store = await openStore('sqlite::memory:');
    const report = await scenarioReport(store, await analysisRun(store, ANALYSIS_SCENARIO.replace(', family: openai', '')));
    const sp = report.judges[0]!.selfPreference;
    expect(report.judges[0]!.family).toBe('house');
    expect(sp.own.outputs).toBe(0);
    expect(sp.other.outputs).toBe(4);
    expect(sp.excess).toBeNull();
    await store.close();
  });

  it('the family key is a label: adding it keeps the scenario hash and so the run', async () => {
    const a = await openStore('sqlite::memory:');
    const b = await openStore('sqlite::memory:');
    expect(await analysisRun(a)).toBe(await analysisRun(b, ANALYSIS_SCENARIO.replace(', family: openai', '')));
    await Promise.all([a.close(), b.close()]);
  });

  it('models.<alias>.family: a non-empty label; an override to another model drops it', () => {
    const parse = (text: string, models: string[] = []) => parseScenario('/tmp/f.yaml', text, { env: {}, models: models.map(m => parseModelSpec(m)) });
    expect(parse(ANALYSIS_SCENARIO).models.get('j_openai')!.family).toBe('openai');
    expect(parse(ANALYSIS_SCENARIO, ['j_openai=openai:gpt-4.1']).models.get('j_openai')!.family).toBeUndefined();
    expect(issuesOf(() => parse(ANALYSIS_SCENARIO.replace('family: openai', 'family: ""')))[0]).toMatchObject({ line: 5, field: 'models.j_openai.family' });
  });
});
