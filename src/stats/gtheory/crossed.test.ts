import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crossedComponents, dStudy, varianceComponents } from './index.js';

const conformance = JSON.parse(
  readFileSync(new URL('../../../test/conformance/gtheory_variance_components.json', import.meta.url), 'utf8'),
) as { designs: { name: string; scores?: unknown; levels?: Record<string, number> }[] };
const FOUR = ['obs', 'item', 'llm', 'prompt'];

function dense(name: string) {
  const d = conformance.designs.find(x => x.name === name)!;
  const y = Float64Array.from((d.scores as unknown[]).flat(3) as number[]);
  const sizes = FOUR.map(f => d.levels![f]!);
  const rows: Record<string, number>[] = [];
  y.forEach((score, c) => {
    let rest = c;
    const at: Record<string, number> = {};
    for (let f = FOUR.length - 1; f >= 0; f--) { at[FOUR[f]!] = rest % sizes[f]!; rest = Math.floor(rest / sizes[f]!); }
    rows.push({ ...at, score });
  });
  return { y, sizes, rows };
}

describe('crossedComponents: the dense fast path equals varianceComponents', () => {
  for (const name of ['synthetic_obs_x_item_x_llm_x_prompt', 'synthetic_obs_x_item_x_llm_x_prompt_negative_components']) {
    it(`${name}: ANOVA and REML estimates, same keys and order`, () => {
      const { y, sizes, rows } = dense(name);
      for (const method of ['anova', 'reml'] as const) {
        const slow = varianceComponents(rows, { facets: FOUR, value: 'score', method });
        const fast = crossedComponents(y, FOUR, sizes, method);
        expect(fast.keys).toEqual(slow.components.map(c => c.key));
        slow.components.forEach((c, i) => {
          expect(Math.abs(fast.anovaEstimates[i]! - c.anovaEstimate)).toBeLessThan(1e-10);
          expect(Math.abs(fast.estimates[i]! - c.estimate)).toBeLessThan(1e-9);
        });
      }
    });
  }
  it('rejects a wrong cell count', () => {
    expect(() => crossedComponents(new Float64Array(5), ['a', 'b'], [2, 3])).toThrow(/expected 6 cells/);
  });
});

describe('dStudy with a composite object of measurement', () => {
  const { rows } = dense('synthetic_obs_x_item_x_llm_x_prompt');
  const r = varianceComponents(rows, { facets: FOUR, value: 'score' });
  const v = (key: string) => r.components.find(c => c.key === key)!.estimate;

  it("'joint' (KwW C.4): tau = sigma2(obs:item); delta holds obs and item and an instrument facet; Delta every instrument component", () => {
    const g = dStudy(r, { objectOfMeasurement: ['obs', 'item'], convention: 'joint', facets: { llm: 2, prompt: 3 } });
    expect(g.universeScoreVariance).toBe(v('obs:item'));
    const delta = v('obs:item:llm') / 2 + v('obs:item:prompt') / 3 + v('obs:item:llm:prompt') / 6;
    const Delta = v('llm') / 2 + v('prompt') / 3 + v('obs:llm') / 2 + v('obs:prompt') / 3 + v('item:llm') / 2 + v('item:prompt') / 3 +
      v('llm:prompt') / 6 + v('obs:llm:prompt') / 6 + v('item:llm:prompt') / 6 + delta;
    expect(g.relativeError).toBeCloseTo(delta, 12);
    expect(g.absoluteError).toBeCloseTo(Delta, 12);
    expect(g.eRho2).toBeCloseTo(v('obs:item') / (v('obs:item') + delta), 12);
    expect(g.phi).toBeCloseTo(v('obs:item') / (v('obs:item') + Delta), 12);
    expect(g).toMatchObject({ objectOfMeasurement: ['obs', 'item'], convention: 'joint', sampleSizes: { llm: 2, prompt: 3 } });
  });

  it("'composite' (Brennan): tau = every object-only component; delta any object facet with an instrument facet", () => {
    const g = dStudy(r, { objectOfMeasurement: ['obs', 'item'], convention: 'composite', facets: { llm: 2, prompt: 3 } });
    expect(g.universeScoreVariance).toBeCloseTo(v('obs') + v('item') + v('obs:item'), 12);
    const delta = v('obs:llm') / 2 + v('obs:prompt') / 3 + v('item:llm') / 2 + v('item:prompt') / 3 + v('obs:llm:prompt') / 6 +
      v('item:llm:prompt') / 6 + v('obs:item:llm') / 2 + v('obs:item:prompt') / 3 + v('obs:item:llm:prompt') / 6;
    expect(g.relativeError).toBeCloseTo(delta, 12);
    expect(g.absoluteError).toBeCloseTo(delta + v('llm') / 2 + v('prompt') / 3 + v('llm:prompt') / 6, 12);
  });

  it('a single facet gives the same result under both conventions', () => {
    const a = dStudy(r, { objectOfMeasurement: 'obs', facets: { item: 4, llm: 2 } });
    const b = dStudy(r, { objectOfMeasurement: ['obs'], convention: 'joint', facets: { item: 4, llm: 2 } });
    expect(b.eRho2).toBe(a.eRho2);
    expect(b.phi).toBe(a.phi);
  });
});
