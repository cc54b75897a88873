import { StatsInputError } from '../inference/errors.js';
import { anovaTable, emsEstimates, type Effect } from './anova.js';
import { codeDesign, type Level } from './design.js';
import { remlEstimates } from './reml.js';

export interface VarianceComponentsOptions {
  /** Facet columns, e.g. `['obs', 'item', 'llm', 'prompt']`. Component keys follow this order. */
  facets: string[];
  /** Score column. */
  value: string;
  /**
   * Nested facets: `{ r: 't' }` reads "raters nested within tasks" (Brennan's r:t). A facet may be
   * nested in several (`{ r: ['t', 's'] }`); nesting is transitive. Omit for fully crossed designs.
   */
  nesting?: Record<string, string | string[]>;
  /**
   * `'anova'` (default): expected-mean-squares estimates, negative ones kept as estimated.
   * `'reml'`: restricted maximum likelihood constrained to >= 0 (equals ANOVA when no ANOVA estimate
   * is negative; otherwise matches lme4::lmer with one random term per effect).
   */
  method?: 'anova' | 'reml';
}

export interface VarianceComponent {
  /** Facet names of the effect joined by ':' in `facets` order, e.g. `obs:item` or `t:r`. */
  key: string;
  /** Brennan's notation: `p x i`, `r:t`, `p x (r:t)`. */
  label: string;
  facets: string[];
  df: number;
  /** Brennan's T term for the effect (raw scores). */
  T: number;
  ss: number;
  ms: number;
  /** ANOVA (EMS) estimate, possibly negative. */
  anovaEstimate: number;
  /** The estimate of the chosen method (ANOVA: may be negative; REML: >= 0). */
  estimate: number;
  /** True when `estimate` < 0 (it is then used as 0 in shares, D studies and BLUPs). */
  negative: boolean;
  /** pi_k = max(estimate, 0) / sum over components of max(estimate, 0). */
  share: number;
  /** Multipliers of the components in this effect's expected mean square, by key (non-zero only). */
  ems: Record<string, number>;
}

export interface VarianceComponentsResult {
  facets: string[];
  nesting: Record<string, string[]>;
  /** Levels per facet; for a nested facet, levels within each level of its ancestors. */
  levels: Record<string, number>;
  /** Number of cells (observations). */
  n: number;
  grandMean: number;
  /** Brennan's T(mu) = n * grandMean^2. */
  tMean: number;
  method: 'anova' | 'reml';
  /** Components ordered by size, then by facet position; the last one is confounded with error. */
  components: VarianceComponent[];
  /** Sum of the non-negative parts of the estimates (denominator of the shares). */
  totalVariance: number;
  /** Main-effect level means of facets that are not nested, in order of first appearance. */
  marginalMeans: Record<string, { levels: Level[]; means: number[] }>;
  /** REML only: iterations and restricted log-likelihood (up to a constant). */
  reml?: { iterations: number; logLik: number };
}

/**
 * G-study variance components of a balanced random-effects design with one observation per cell:
 * any number of crossed facets, optionally with nested facets (e.g. Brennan's p x (r:t)). The
 * highest-order effect is confounded with the residual. Reproduces Brennan (2001) Synthetic Data
 * Sets No. 1, 3 and 4 and lme4 REML fits (see test/conformance/gtheory_variance_components.json).
 *
 * Runs in one pass over the cells per effect using integer level codes, so 100k cells with four
 * facets take a few tens of milliseconds.
 * Errors: missing or repeated cells, unequal nested sizes, non-finite scores, facets with fewer than
 * two levels (no degrees of freedom), unknown nesting facets.
 */
export function varianceComponents(
  rows: ReadonlyArray<Record<string, string | number>>,
  options: VarianceComponentsOptions,
): VarianceComponentsResult {
  if (!options || typeof options !== 'object') throw new StatsInputError('options', 'expected { facets, value }');
  const nestingIn = options.nesting ?? {};
  const method = options.method ?? 'anova';
  if (method !== 'anova' && method !== 'reml') throw new StatsInputError('method', `must be 'anova' or 'reml', got ${String(method)}`);
  const design = codeDesign(rows, options.facets, options.value, nestingIn);
  design.sizes.forEach((s, f) => {
    if (s < 2) throw new StatsInputError('rows', `facet "${design.facets[f]}" has ${s} level(s); each facet needs at least 2`);
  });
  const table = anovaTable(design);
  const anova = emsEstimates(table);
  let estimates = anova;
  let reml: VarianceComponentsResult['reml'];
  if (method === 'reml') {
    const fit = remlEstimates(table, anova);
    estimates = fit.estimates;
    reml = { iterations: fit.iterations, logLik: fit.logLik };
  }
  const names = design.facets;
  const keys = table.effects.map(e => e.members.map(f => names[f]).join(':'));
  const totalVariance = estimates.reduce((s, v) => s + Math.max(0, v), 0);
  const components = table.effects.map((e, a): VarianceComponent => {
    const ems: Record<string, number> = {};
    table.coef[a]!.forEach((c, b) => {
      if (c !== 0) ems[keys[b]!] = c;
    });
    return {
      key: keys[a]!,
      label: brennanLabel(e, names, design.ancestors),
      facets: e.members.map(f => names[f]!),
      df: table.df[a]!,
      T: table.T[a]!,
      ss: table.ss[a]!,
      ms: table.ms[a]!,
      anovaEstimate: anova[a]!,
      estimate: estimates[a]!,
      negative: estimates[a]! < 0,
      share: totalVariance > 0 ? Math.max(0, estimates[a]!) / totalVariance : Number.NaN,
      ems,
    };
  });
  const marginalMeans: VarianceComponentsResult['marginalMeans'] = {};
  design.facets.forEach((name, f) => {
    if (design.ancestors[f]!.length > 0) return;
    const size = design.sizes[f]!;
    const sums = new Float64Array(size);
    const code = design.codes[f]!;
    for (let c = 0; c < design.n; c++) { const j = code[c]!; sums[j] = sums[j]! + design.y[c]!; }
    marginalMeans[name] = { levels: design.labels[f]!, means: Array.from(sums, s => (s * size) / design.n) };
  });
  return {
    facets: [...names],
    nesting: Object.fromEntries(names.map((n, f) => [n, design.ancestors[f]!]).filter(([, a]) => a!.length > 0)),
    levels: Object.fromEntries(names.map((n, f) => [n, design.sizes[f]!])),
    n: design.n,
    grandMean: table.grandMean,
    tMean: table.tMean,
    method,
    components,
    totalVariance,
    marginalMeans,
    ...(reml ? { reml } : {}),
  };
}

/** `p x i`, `r:t`, `p x (r:t)`: crossed parts joined by " x ", a nested facet written f:parents. */
function brennanLabel(e: Effect, names: string[], ancestors: string[][]): string {
  const parts = e.primary.map(f => (ancestors[f]!.length ? `${names[f]}:${ancestors[f]!.join(':')}` : names[f]!));
  if (parts.length === 1) return parts[0]!;
  return parts.map(p => (p.includes(':') ? `(${p})` : p)).join(' x ');
}
