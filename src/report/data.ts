import type { Item, JsonValue, RunRecord, ScorerRef, Store, TestDefinition } from '../core/index.js';
import { groupValues, itemResults, type ItemResult } from './aggregate.js';
import { compareModels, type Comparison } from './comparisons.js';
import { explanationReport, type ExplanationReport } from './explanations.js';
import { meanInterval } from './interval.js';

/** One table cell: a model's score on a test (or on one group of a test) with its interval and n. */
export interface Cell {
  model: string;
  test: string;
  /** Items with a score. Intervals are over items, not trials. */
  n: number;
  mean: number | null;
  low: number | null;
  high: number | null;
  trials: number;
  failed: number;
  unscored: number;
  costUsd: number;
  /** Share of items with the same result in every repeat (null with one repeat). */
  consistency: number | null;
}

export interface GroupCell extends Cell {
  field: string;
  value: string;
  /** Fewer than 10 items: read with care. */
  small: boolean;
}

/** A wrong or partly wrong answer on a public item, for the report's examples. */
export interface FailureExample {
  model: string;
  test: string;
  itemId: string;
  input: JsonValue;
  expected: string[];
  answer: string;
  value: number;
  reason: string;
}

export interface ModelInfo {
  alias: string;
  spec: string;
  isBaseline: boolean;
  costUsd: number;
  /** Cost divided by the summed item scores (a score of 1 is one correct answer). */
  costPerCorrect: number | null;
  failed: number;
}

export interface ReportData {
  runId: string;
  status: RunRecord['status'];
  generatedAt: string;
  config: RunRecord['config'];
  prices: { source: string; date: string };
  models: ModelInfo[];
  tests: Array<{ name: string; description: string; scorer: ScorerRef | undefined }>;
  cells: Cell[];
  groups: GroupCell[];
  failures: FailureExample[];
  /** Explanation scores of the judged test, apart from the headline scores; null when nothing was judged. */
  explanations: ExplanationReport | null;
  /** Paired comparisons per test: models under test pairwise, and each against `baseline:copy`. */
  comparisons: Comparison[];
  /** Every call of the run, judge calls included. */
  totalCostUsd: number;
  /** Settings of the intervals, for the methods note. */
  interval: { method: 'bootstrap-percentile'; resamples: number; level: number; seed: number };
}

const SMALL_GROUP = 10;

export interface ReportOptions {
  tests: ReadonlyMap<string, TestDefinition>;
  resamples?: number;
  seed?: number;
  /** How many failure examples per model and test. */
  examplesPer?: number;
}

/** Everything a report shows, computed from the store alone: no model is called. */
export async function buildReportData(store: Store, runId: string, o: ReportOptions): Promise<ReportData> {
  const run = await store.getRun(runId);
  if (!run) throw new Error(`no run "${runId}" in ${store.url}; list runs with: paideia runs`);
  const [trials, versioned, calls, scores] = await Promise.all([
    store.listTrials(runId), store.listRunItems(runId), store.listCalls(runId), store.listScores(runId),
  ]);
  const items = new Map<string, Item>(versioned.map(v => [v.hash, v.item]));
  const headline = new Map([...o.tests.values()].map(t => [t.name, t.scorers[0]?.name ?? '']));
  const results = itemResults(trials, items, calls, scores, headline);
  const resamples = o.resamples ?? 2000;
  const seed = o.seed ?? run.config.seed;
  const cell = (model: string, test: string, rs: ItemResult[], trialCount: number): Cell => {
    const values = rs.flatMap(r => (r.value === null ? [] : [r.value]));
    const ci = meanInterval(values, { resamples, seed });
    const multi = rs.filter(r => r.repeats.length > 1);
    return {
      model, test, n: values.length, ...ci, trials: trialCount,
      failed: rs.reduce((a, r) => a + r.failed, 0), unscored: rs.reduce((a, r) => a + r.unscored, 0),
      costUsd: rs.reduce((a, r) => a + r.costUsd, 0),
      consistency: multi.length ? multi.filter(r => r.repeats.every(v => v === r.repeats[0])).length / multi.length : null,
    };
  };

  const trialCount = new Map<string, number>();
  for (const t of trials) trialCount.set(`${t.modelAlias}\u0000${t.test}`, (trialCount.get(`${t.modelAlias}\u0000${t.test}`) ?? 0) + 1);
  const byCell = groupBy(results, r => `${r.model}\u0000${r.test}`);
  const cells: Cell[] = [];
  const groups: GroupCell[] = [];
  const failures: FailureExample[] = [];
  for (const [key, rs] of [...byCell].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [model, test] = key.split('\u0000') as [string, string];
    cells.push(cell(model, test, rs, trialCount.get(key) ?? 0));
    const byGroup = groupBy(rs.flatMap(r => groupValues(r.item).map(([f, v]) => ({ f, v, r }))), x => `${x.f}\u0000${x.v}`);
    for (const [gk, xs] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [field, value] = gk.split('\u0000') as [string, string];
      const c = cell(model, test, xs.map(x => x.r), 0);
      groups.push({ ...c, field, value, small: c.n < SMALL_GROUP });
    }
    // Published examples come from public items only; private items never leave the store.
    const wrong = rs.filter(r => r.item.visibility === 'public' && r.value !== null && r.value < 1)
      .sort((a, b) => (a.value! - b.value!) || (a.item.id < b.item.id ? -1 : 1))
      .slice(0, o.examplesPer ?? 5);
    for (const r of wrong) {
      failures.push({
        model, test, itemId: r.item.id, input: r.item.input as JsonValue, expected: r.item.accepted ?? r.item.references ?? [],
        answer: r.lastAnswer ?? '', value: r.value!, reason: r.lastReason ?? '',
      });
    }
  }

  const aliasOf = new Map(trials.map(t => [t.id, t.modelAlias]));
  const costByModel = new Map<string, number>();
  for (const c of calls) {
    const alias = aliasOf.get(c.trialId);
    // Judge calls belong to no model under test; the explanation section reports their cost.
    if (alias !== undefined) costByModel.set(alias, (costByModel.get(alias) ?? 0) + c.costUsd);
  }
  const models: ModelInfo[] = run.config.models.map(m => {
    const mine = results.filter(r => r.model === m.alias);
    const costUsd = costByModel.get(m.alias) ?? 0;
    const correct = mine.reduce((a, r) => a + (r.value ?? 0), 0);
    return {
      alias: m.alias, spec: m.spec, isBaseline: m.provider === 'baseline', costUsd,
      costPerCorrect: correct > 0 ? costUsd / correct : null, failed: mine.reduce((a, r) => a + r.failed, 0),
    };
  });
  const testNames = [...new Set(trials.map(t => t.test))].sort();
  const explanations = explanationReport({
    trials, items, scores, calls, models: run.config.models.map(m => m.alias), resamples, seed, examplesPer: o.examplesPer ?? 5,
  });
  const comparisons = compareModels({
    tests: testNames, models, results, resamples, seed,
    interval: (model, test) => cells.find(c => c.model === model && c.test === test),
  });
  return {
    runId, status: run.status, generatedAt: new Date().toISOString(), config: run.config,
    prices: { source: run.prices.source, date: run.prices.date }, models,
    tests: testNames.map(name => ({
      name, description: o.tests.get(name)?.description ?? '', scorer: results.find(r => r.test === name && r.scorer)?.scorer,
    })),
    cells, groups, failures, explanations, comparisons,
    totalCostUsd: calls.reduce((a, c) => a + c.costUsd, 0),
    interval: { method: 'bootstrap-percentile', resamples, level: 0.95, seed },
  };
}

function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) (m.get(key(x)) ?? m.set(key(x), []).get(key(x))!).push(x);
  return m;
}
