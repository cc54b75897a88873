import { StatsInputError } from '../inference/errors.js';
import type { Level } from './design.js';
import type { VarianceComponentsResult } from './variance-components.js';

export interface DStudyOptions {
  /**
   * What we want to tell apart: one facet (e.g. `p`, `obs`) or a composite object of several facets
   * (e.g. `['obs', 'item']`: each observation on each item). Object facets must not be nested.
   */
  objectOfMeasurement: string | readonly string[];
  /**
   * How a composite object's components are split (ignored for a single facet, where both agree
   * with Brennan 2001, ch. 4):
   * - `'joint'` (Hardy & Kim 2026, "Knowledge without Wisdom", C.4): universe score = the component
   *   of exactly the object's facets; relative error = components holding all of them and an
   *   instrument facet; absolute error = every component holding an instrument facet.
   * - `'composite'` (default; Brennan's composite object, the object's facets taken together as one):
   *   universe score = every component made only of object facets; relative error = components
   *   holding an object facet and an instrument facet; absolute error as for 'joint'.
   */
  convention?: 'joint' | 'composite';
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
  objectOfMeasurement: string[];
  convention: 'joint' | 'composite';
}

/**
 * D study for a design analysed by {@link varianceComponents} (Brennan 2001, ch. 4): each
 * component sigma^2_b is divided by the product of the D-study sizes n' of its facets outside the
 * object of measurement. For a single object facet p: components containing p and only fixed
 * facets go to tau; those with p and a random facet to delta and Delta; those without p but with a
 * random facet to Delta; those made only of fixed facets are dropped. A composite object follows
 * `convention` (see {@link DStudyOptions}); components that hold some object facets and no random
 * instrument facet, but are not universe score under the convention, are in neither (e.g. sigma^2(obs)
 * for the joint object obs x item). Negative estimates count as 0 (Brennan's convention).
 */
export function dStudy(components: Pick<VarianceComponentsResult, 'facets' | 'levels' | 'components' | 'nesting'>, options: DStudyOptions): DStudyResult {
  const { facets } = components;
  const object = typeof options.objectOfMeasurement === 'string' ? [options.objectOfMeasurement] : [...(options.objectOfMeasurement ?? [])];
  const convention = options.convention ?? 'composite';
  if (convention !== 'joint' && convention !== 'composite') throw new StatsInputError('convention', `must be 'joint' or 'composite', got ${String(convention)}`);
  if (object.length === 0) throw new StatsInputError('objectOfMeasurement', 'name at least one facet');
  for (const p of object) {
    if (!facets.includes(p)) throw new StatsInputError('objectOfMeasurement', `"${p}" is not one of the facets (${facets.join(', ')})`);
    if (components.nesting[p]) throw new StatsInputError('objectOfMeasurement', `"${p}" is nested; choose a facet that is not nested`);
  }
  if (new Set(object).size !== object.length) throw new StatsInputError('objectOfMeasurement', `repeats a facet: ${object.join(', ')}`);
  const isObject = new Set(object);
  const fixed = new Set(options.fixed ?? []);
  for (const f of fixed) {
    if (!facets.includes(f)) throw new StatsInputError('fixed', `"${f}" is not one of the facets (${facets.join(', ')})`);
    if (isObject.has(f)) throw new StatsInputError('fixed', 'the object of measurement cannot be fixed');
  }
  const sizes: Record<string, number> = {};
  for (const f of facets) if (!isObject.has(f)) sizes[f] = components.levels[f]!;
  for (const [f, n] of Object.entries(options.facets ?? {})) {
    if (!facets.includes(f)) throw new StatsInputError(`facets.${f}`, `is not one of the facets (${facets.join(', ')})`);
    if (isObject.has(f)) continue;
    if (typeof n !== 'number' || !(n > 0) || !Number.isFinite(n)) throw new StatsInputError(`facets.${f}`, `must be a positive number, got ${String(n)}`);
    sizes[f] = n;
  }
  let tau = 0;
  let delta = 0;
  let Delta = 0;
  for (const c of components.components) {
    const v = Math.max(0, c.estimate);
    const others = c.facets.filter(f => !isObject.has(f));
    const divisor = others.reduce((d, f) => d * sizes[f]!, 1);
    const random = others.some(f => !fixed.has(f));
    const held = c.facets.length - others.length;
    // 'joint' needs every object facet; 'composite' any of them.
    const onObject = convention === 'joint' ? held === object.length : held > 0;
    if (random) {
      Delta += v / divisor;
      if (onObject) delta += v / divisor;
    } else if (onObject) {
      tau += v / divisor;
    }
  }
  return {
    universeScoreVariance: tau,
    relativeError: delta,
    absoluteError: Delta,
    eRho2: tau / (tau + delta),
    phi: tau / (tau + Delta),
    sampleSizes: sizes,
    objectOfMeasurement: object,
    convention,
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
