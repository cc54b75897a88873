import { compareModels, type ComparedModel, type ModelComparison } from '../stats/inference/compare-models.js';
import type { ItemResult } from './aggregate.js';

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
  results: ItemResult[];
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
  const byModelTest = new Map<string, Map<string, number>>();
  for (const r of o.results) {
    if (r.value === null) continue;
    const key = `${r.model}\u0000${r.test}`;
    (byModelTest.get(key) ?? byModelTest.set(key, new Map()).get(key)!).set(r.itemHash, r.value);
  }
  const real = o.models.filter(m => !m.isBaseline);
  const copy = o.models.find(m => m.spec === 'baseline:copy');
  const pairs: Array<[string, string, Comparison['kind']]> = [];
  for (let i = 0; i < real.length; i++) for (let j = i + 1; j < real.length; j++) pairs.push([real[i]!.alias, real[j]!.alias, 'models']);
  if (copy) for (const m of real) pairs.push([m.alias, copy.alias, 'vs-copy']);

  const out: Comparison[] = [];
  for (const test of o.tests) {
    const present = pairs.filter(([a, b]) => byModelTest.has(`${a}\u0000${test}`) && byModelTest.has(`${b}\u0000${test}`));
    const side = (model: string): ComparedModel => ({ name: model, values: byModelTest.get(`${model}\u0000${test}`)!, interval: o.interval(model, test) });
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
