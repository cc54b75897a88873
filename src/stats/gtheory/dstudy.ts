import { StatsInputError } from '../inference/errors.js';
import type { Level } from './design.js';
import type { VarianceComponentsResult } from './variance-components.js';

export interface DStudyOptions {
  /** The facet whose universe scores we want to tell apart (e.g. `p`, `obs`). Must not be nested. */
  objectOfMeasurement: string;
  /**
   * D-study sample sizes n' per facet (a nested facet: per level of its parents, e.g. raters per
   * task). Facets left out keep their G-study sizes.
   */
  facets?: Record<string, number>;
  /** Facets fixed in the universe of generalization (Brennan 2001, 4.4); default none. */
  fixed?: string[];
}

export interface DStudyResult {
  /** sigma^2(tau): universe-score variance (plus object x fixed-facet effects). */
  universeScoreVariance: number;
  /** sigma^2(delta): relative error variance. */
  relativeError: number;
  /** sigma^2(Delta): absolute error variance. */
  absoluteError: number;
  /** Generalizability coefficient E rho^2 = tau / (tau + delta). */
  eRho2: number;
  /** Index of dependability Phi = tau / (tau + Delta). */
  phi: number;
  /** The sample sizes used, per facet other than the object of measurement. */
  sampleSizes: Record<string, number>;
}

/**
 * D study for a design analysed by {@link varianceComponents} (Brennan 2001, ch. 4): each
 * component sigma^2_b is divided by the product of the D-study sizes n' of its facets other than
 * the object of measurement p. Components containing p and only fixed facets go to tau; those with
 * p and a random facet to delta and Delta; those without p but with a random facet to Delta; those
 * made only of fixed facets are dropped. Negative estimates count as 0 (Brennan's convention).
 */
export function dStudy(components: Pick<VarianceComponentsResult, 'facets' | 'levels' | 'components' | 'nesting'>, options: DStudyOptions): DStudyResult {
  const { facets } = components;
  const p = options.objectOfMeasurement;
  if (!facets.includes(p)) throw new StatsInputError('objectOfMeasurement', `"${p}" is not one of the facets (${facets.join(', ')})`);
  if (components.nesting[p]) throw new StatsInputError('objectOfMeasurement', `"${p}" is nested; choose a facet that is not nested`);
  const fixed = new Set(options.fixed ?? []);
  for (const f of fixed) {
    if (!facets.includes(f)) throw new StatsInputError('fixed', `"${f}" is not one of the facets (${facets.join(', ')})`);
    if (f === p) throw new StatsInputError('fixed', 'the object of measurement cannot be fixed');
  }
  const sizes: Record<string, number> = {};
  for (const f of facets) if (f !== p) sizes[f] = components.levels[f]!;
  for (const [f, n] of Object.entries(options.facets ?? {})) {
    if (!facets.includes(f)) throw new StatsInputError(`facets.${f}`, `is not one of the facets (${facets.join(', ')})`);
    if (f === p) continue;
    if (typeof n !== 'number' || !(n > 0) || !Number.isFinite(n)) throw new StatsInputError(`facets.${f}`, `must be a positive number, got ${String(n)}`);
    sizes[f] = n;
  }
  let tau = 0;
  let delta = 0;
  let Delta = 0;
  for (const c of components.components) {
    const v = Math.max(0, c.estimate);
    const others = c.facets.filter(f => f !== p);
    const divisor = others.reduce((d, f) => d * sizes[f]!, 1);
    const random = others.some(f => !fixed.has(f));
    if (c.facets.includes(p)) {
      if (random) {
        delta += v / divisor;
        Delta += v / divisor;
      } else {
        tau += v / divisor;
      }
    } else if (random) {
      Delta += v / divisor;
    }
  }
  return {
    universeScoreVariance: tau,
    relativeError: delta,
    absoluteError: Delta,
    eRho2: tau / (tau + delta),
    phi: tau / (tau + Delta),
    sampleSizes: sizes,
  };
}

export interface MainEffectBlup {
  facet: string;
  /** sigma^2_f * prod_{g != f} n_g / E[MS_f]: the factor pulling level means toward the grand mean. */
  shrinkage: number;
  levels: Level[];
  /** Predicted random effect of each level: shrinkage * (level mean - grand mean). */
  blup: number[];
}

/**
 * Closed-form BLUPs of the main effects of a balanced random design (facets that are not nested):
 * BLUP(u_f = l) = [sigma^2_f prod_{g != f} n_g / EMS_f] (mean_{f=l} - grand mean), with
 * EMS_f = sum over effects e containing f of (prod_{g not in e} n_g) sigma^2_e, using the
 * estimates of the chosen method (negative ones as 0). With the fixed intercept at the grand mean,
 * this equals lme4's `ranef` for the same variance components (Searle et al. 1992, 7.4).
 */
export function mainEffectBlups(result: VarianceComponentsResult): MainEffectBlup[] {
  const byKey = new Map(result.components.map(c => [c.key, c]));
  return Object.entries(result.marginalMeans).map(([facet, { levels, means }]) => {
    const own = byKey.get(facet)!;
    let ems = 0;
    for (const c of result.components) {
      const coef = c.facets.includes(facet) ? own.ems[c.key] : undefined;
      if (coef !== undefined) ems += coef * Math.max(0, c.estimate);
    }
    const shrinkage = ems > 0 ? (Math.max(0, own.estimate) * own.ems[facet]!) / ems : 0;
    return { facet, shrinkage, levels, blup: means.map(m => shrinkage * (m - result.grandMean)) };
  });
}
