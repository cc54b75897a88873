import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dStudy, varianceComponents, type VarianceComponentsResult } from './index.js';

// Independent references (Kronecker-product projections, trace-based EMS, full-likelihood REML):
// __fixtures__/gen_gtheory.py.
interface Case {
  name: string;
  facets: string[];
  nesting: Record<string, string>;
  rows: Record<string, number>[];
  anova: { facets: string[]; df: number; SS: number; MS: number; var_comp_anova: number }[];
  reml: number[];
  reml_loglik: number;
  negative_anova: string[][];
  d_studies: { sizes: Record<string, number>; fixed?: string[]; result: { tau: number; delta: number; Delta: number; E_rho2: number; Phi: number } }[];
}
const { cases } = JSON.parse(readFileSync(new URL('./__fixtures__/gtheory_reference.json', import.meta.url), 'utf8')) as { cases: Case[] };
const near = (a: number, b: number, tol: number, what = '') =>
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));
const keyOf = (facets: string[]) => facets.join(':');

/** Restricted log-likelihood from the strata, with the constant that the full-matrix form carries. */
function remlLogLik(r: VarianceComponentsResult, sigma2: number[]): number {
  return r.components.reduce((l, a) => {
    const lambda = r.components.reduce((s, b, j) => s + (a.ems[b.key] ?? 0) * sigma2[j]!, 0);
    return l - 0.5 * (a.df * Math.log(lambda) + a.ss / lambda);
  }, 0);
}

for (const c of cases) {
  describe(`varianceComponents vs independent numpy: ${c.name}`, () => {
    const options = { facets: c.facets, value: 'score', nesting: c.nesting };
    const r = varianceComponents(c.rows, options);

    it('ANOVA: df, SS, MS and EMS estimates (1e-9)', () => {
      expect(r.components.map(x => x.key).sort()).toEqual(c.anova.map(x => keyOf(x.facets)).sort());
      for (const e of c.anova) {
        const got = r.components.find(x => x.key === keyOf(e.facets))!;
        expect(got.df, got.key).toBe(e.df);
        near(got.ss, e.SS, 1e-9, `SS ${got.key}`);
        near(got.ms, e.MS, 1e-9, `MS ${got.key}`);
        near(got.anovaEstimate, e.var_comp_anova, 1e-9, `sigma2 ${got.key}`);
      }
      expect(r.components.filter(x => x.negative).map(x => x.key).sort()).toEqual(c.negative_anova.map(keyOf).sort());
    });

    it('D studies, random and with a fixed facet (1e-9)', () => {
      for (const d of c.d_studies) {
        const got = dStudy(r, { objectOfMeasurement: c.facets[0]!, facets: d.sizes, fixed: d.fixed ?? [] });
        near(got.universeScoreVariance, d.result.tau, 1e-9, 'tau');
        near(got.relativeError, d.result.delta, 1e-9, 'delta');
        near(got.absoluteError, d.result.Delta, 1e-9, 'Delta');
        near(got.eRho2, d.result.E_rho2, 1e-9, 'E rho2');
        near(got.phi, d.result.Phi, 1e-9, 'Phi');
      }
    });

    it('constrained REML reaches the full-likelihood optimum found by scipy', () => {
      const reml = varianceComponents(c.rows, { ...options, method: 'reml' });
      const order = c.anova.map(x => keyOf(x.facets));
      const scipyPoint = reml.components.map(x => c.reml[order.indexOf(x.key)]!);
      const ours = remlLogLik(reml, reml.components.map(x => x.estimate));
      // Same likelihood up to a constant: compare the two points on our strata form.
      expect(ours).toBeGreaterThanOrEqual(remlLogLik(reml, scipyPoint) - 1e-9);
      reml.components.forEach((x, j) => near(x.estimate, scipyPoint[j]!, 1e-7, `REML ${x.key}`));
    });
  });
}
