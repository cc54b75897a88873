import { compareModels, type ComparedModel, type ModelComparison } from '../stats/inference/compare-models.js';

/**
 * A paired comparison of two models on one test, over the items both answered (units are items,
 * the interval 95%; see ModelComparison for n, difference, low, high, pOneSided, intervalsOverlap).
 */
export interface Comparison extends Omit<ModelComparison, 'bothIntervals'> {
  test: string;
  /** The language the comparison is restricted to, when the test's items span several (one row per language); null: all items. */
  language: string | null;
  /** `models`: two models under test; `vs-copy`: a model against the copy baseline (the "no change" floor). */
  kind: 'models' | 'vs-copy';
  /** Plain words for the reader when the table cannot rank the two; null when the intervals are apart. */
  warning: string | null;
}

export interface ComparisonInput {
  tests: string[];
  /** Models in table order, with whether each is a baseline and its spec. */
  models: Array<{ alias: string; spec: string; isBaseline: boolean }>;
  /** A model's score per item (by version hash) on a test: undefined when it has none. Asked only of models compared. */
  values: (model: string, test: string) => ReadonlyMap<string, number> | undefined;
  /** Each model's interval per test, from the score table. */
  interval: (model: string, test: string) => { low: number | null; high: number | null } | undefined;
  resamples: number;
  seed: number;
  /** Set when `results` hold one language of a test whose items span several; it names the row in warnings. */
  language?: string | null;
}

/**
 * Pairwise comparisons per test: every pair of models under test, plus each of them against
 * `baseline:copy` when the run has it. Items are paired by version hash, so only items both models
 * answered count; the paired bootstrap resamples items jointly (seeded; stats' compareModels).
 */
export function suiteComparisons(o: ComparisonInput): Comparison[] {
  const real = o.models.filter(m => !m.isBaseline);
  const copy = o.models.find(m => m.spec === 'baseline:copy');
  const pairs: Array<[string, string, Comparison['kind']]> = [];
  for (let i = 0; i < real.length; i++) for (let j = i + 1; j < real.length; j++) pairs.push([real[i]!.alias, real[j]!.alias, 'models']);
  if (copy) for (const m of real) pairs.push([m.alias, copy.alias, 'vs-copy']);

  const out: Comparison[] = [];
  for (const test of o.tests) {
    // Each model's scores on this test, made once and let go after it.
    const made = new Map<string, ReadonlyMap<string, number> | undefined>();
    const valuesOf = (model: string) => (made.has(model) ? made.get(model) : made.set(model, o.values(model, test)).get(model));
    const present = pairs.filter(([a, b]) => valuesOf(a) !== undefined && valuesOf(b) !== undefined);
    const side = (model: string): ComparedModel => ({ name: model, values: valuesOf(model)!, interval: o.interval(model, test) });
    const compared = compareModels(present.map(([a, b]) => [side(a), side(b)] as const), { resamples: o.resamples, seed: o.seed });
    const row = o.language ? `${test} · ${o.language}` : test;
    compared.forEach((c, i) => {
      const warning = !c.bothIntervals
        ? `${c.a} or ${c.b} has no interval on ${row} (fewer than 2 scored items): this table does not show which is better`
        : c.intervalsOverlap ? `the intervals of ${c.a} and ${c.b} overlap: this table does not show which is better` : null;
      out.push({
        test, language: o.language ?? null, a: c.a, b: c.b, kind: present[i]![2], n: c.n, difference: c.difference, low: c.low, high: c.high,
        pOneSided: c.pOneSided, intervalsOverlap: c.intervalsOverlap, warning,
      });
    });
  }
  return out;
}
