import { commandHint } from '../core/command-hint.js';
import type { JsonValue, RunRecord, ScorerRef, Store, TestDefinition } from '../core/index.js';
import { priceFor, unpricedReason } from '../providers/pricing.js';
import { clipJson, clipText, MAX_REPORT_TEXT, privateTextScrubber } from './clip.js';
import { suiteComparisons, type Comparison } from './comparisons.js';
import type { ExplanationReport } from './explanations.js';
import { meanInterval } from '../stats/inference/mean-interval.js';
import { promptOf, type PromptMessage } from './prompt-text.js';
import { privateItemTexts } from './run-items.js';
import { column, type Column } from '../core/columns.js';
import { readReportRows, type FailedTrial } from './run-rows.js';
import { runInterrupted } from './runs-summary.js';

/** One table cell: a model's score on a test (or on one group of a test) with its interval and n. */
export interface Cell {
  model: string;
  test: string;
  /**
   * null: every item of the test. A test whose items span several languages also gets one cell per
   * language (the score tables show those rows instead of the pooled one; see ReportData.rows).
   */
  language: string | null;
  /** Items with a score. Intervals are over items, not trials. */
  n: number;
  mean: number | null;
  low: number | null;
  high: number | null;
  trials: number;
  failed: number;
  unscored: number;
  /** null when the model has no price in the run's price table (unknown, not free). */
  costUsd: number | null;
  /** Share of items with the same result in every repeat (null with one repeat). */
  consistency: number | null;
}

export interface GroupCell extends Cell {
  field: string;
  value: string;
  /** Fewer than 10 items: read with care. */
  small: boolean;
}

/**
 * A wrong or partly wrong answer on a public item, for the report's examples. Texts longer than
 * MAX_REPORT_TEXT characters (the answer, each string of the input and each expected answer) are
 * cut, ending in `… (N more characters)`.
 */
export interface FailureExample {
  model: string;
  test: string;
  itemId: string;
  input: JsonValue;
  /** The prompt the model saw, rendered again from the item by the test's template; null when it cannot be. */
  prompt: PromptMessage[] | null;
  expected: string[];
  answer: string;
  /** Length of the whole answer. */
  answerLength: number;
  /** Some text of this example was cut. */
  truncated: boolean;
  value: number;
  reason: string;
}

/**
 * Failed trials of one model on one test that ended with the same stored error (the newest record
 * of the failing step): how many, and one of them. The message comes from the server: it is
 * escaped like model text, cut to MAX_REPORT_TEXT characters, and any private item's text in it is
 * replaced by `[private item text]`.
 */
export interface TrialFailureGroup {
  model: string;
  test: string;
  message: string;
  kind: string | null;
  statusCode: number | null;
  /** Failed trials with this error. */
  count: number;
  exampleTrialId: string;
  /** Length of the whole message, and whether it was cut. */
  messageLength: number;
  truncated: boolean;
}

/** A row of the score tables: a test, or one language of a test whose items span several. */
export interface ReportRow {
  test: string;
  language: string | null;
  /** `tutor_accuracy`, or `tutor_accuracy · ga` for a language row. */
  label: string;
}

export interface ModelInfo {
  alias: string;
  spec: string;
  isBaseline: boolean;
  /** Whether the run's price table prices this model (baselines always are); when not, its cost is unknown. */
  priced: boolean;
  /** Why the model has no price: not in the table, or served from a base URL that is not its vendor's. */
  unpricedReason: string | null;
  /** Cost of the model's own calls; null when unknown (no price), never a made-up $0. */
  costUsd: number | null;
  /** Cost divided by the summed item scores (a score of 1 is one correct answer); null when unknown or nothing was correct. */
  costPerCorrect: number | null;
  failed: number;
}

/**
 * The run's settings as a report shows them: how many item versions it plans, not the hash of
 * each (a million of them in a run of a million items; the run id is the hash of the list).
 */
export type ReportConfig = Omit<RunRecord['config'], 'itemHashes'> & { items: number };

export interface ReportData {
  runId: string;
  status: RunRecord['status'];
  generatedAt: string;
  config: ReportConfig;
  prices: { source: string; date: string };
  models: ModelInfo[];
  tests: Array<{ name: string; description: string; scorer: ScorerRef | undefined }>;
  /** Rows of the score tables, charts and comparisons: one per test, or one per language of a test whose items span several. */
  rows: ReportRow[];
  cells: Cell[];
  groups: GroupCell[];
  failures: FailureExample[];
  /** Why trials failed: their stored errors, grouped by message per model and test (largest group first). */
  trialFailures: TrialFailureGroup[];
  /** Specs of the models and judges the run's price table has no price for: their cost is unknown and left out of the totals. */
  unpriced: string[];
  /** Explanation scores of the judged test, apart from the headline scores; null when nothing was judged. */
  explanations: ExplanationReport | null;
  /** Paired comparisons per test: models under test pairwise, and each against `baseline:copy`. */
  comparisons: Comparison[];
  /** Every call of the run, judge calls included (calls of unpriced models count $0: see `unpriced`). */
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
export function buildReportData(store: Store, runId: string, o: ReportOptions): Promise<ReportData> {
  return buildData(store, runId, o, true);
}

/** What the terminal summary of a run prints: its score table and totals, computed as the report computes them. */
export type SummaryData = Pick<ReportData, 'runId' | 'models' | 'rows' | 'cells' | 'unpriced' | 'totalCostUsd' | 'interval'>;

/**
 * The score table of a run without the rest of its report: no group breakdowns, comparisons or
 * examples, whose intervals are most of a report's work (a run's end waited seconds for them at
 * 20,000 trials). Its cells are the report's own, same seed and resamples.
 */
export function buildSummaryData(store: Store, runId: string, o: ReportOptions): Promise<SummaryData> {
  return buildData(store, runId, o, false);
}

/** The report's data; without `whole`, groups, failure examples, trial failures and comparisons stay empty. */
async function buildData(store: Store, runId: string, o: ReportOptions, whole: boolean): Promise<ReportData> {
  const run = await store.getRun(runId);
  if (!run) throw new Error(`no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}`);
  const headline = new Map([...o.tests.values()].map(t => [t.name, t.scorers[0]?.name ?? '']));
  // Read a page of trials at a time and kept as per-item results: memory follows the items, not the
  // trials. The summary shows no answer, so it reads none (the stored results are most of a page).
  const stored = await readReportRows(store, runId, headline, undefined, { answers: whole });
  const { items, results } = stored;
  const resamples = o.resamples ?? 2000;
  const seed = o.seed ?? run.config.seed;
  // A model without a price has an unknown cost, not a free one (its calls are stored at $0).
  // A model served away from its vendor is not charged the vendor's list price (see priceFor).
  const priceOptions = (alias: string) => ({ endpoint: run.config.endpoints?.[alias] });
  const unpricedModels = new Set(run.config.models.filter(m => m.provider !== 'baseline' && !priceFor(run.prices, m, priceOptions(m.alias))).map(m => m.alias));
  const cell = (model: string, test: string, language: string | null, rs: ArrayLike<number>, trialCount: number): Cell => {
    const values: number[] = [];
    let failed = 0, unscored = 0, costUsd = 0, multi = 0, same = 0;
    for (let j = 0; j < rs.length; j++) {
      const k = rs[j]!;
      const v = results.value(k);
      if (v !== null) values.push(v);
      failed += results.failed(k);
      unscored += results.unscored(k);
      costUsd += results.costUsd(k);
      const c = results.consistency(k);
      if (c !== 'one') { multi++; if (c === 'same') same++; }
    }
    // n first, as the report's JSON has always listed it.
    const { n, ...ci } = meanInterval(values, { resamples, seed });
    return {
      model, test, language, n, ...ci, trials: trialCount, failed, unscored, costUsd: unpricedModels.has(model) ? null : costUsd,
      consistency: multi ? same / multi : null,
    };
  };

  // Tests whose items span several languages get one row per language: one pooled mean would hide them.
  const languagesOf = stored.languages;
  const splitLanguages = (test: string) => ((languagesOf.get(test)?.length ?? 0) > 1 ? languagesOf.get(test)! : []);

  const { trialCount } = stored;
  const itemOf = results.itemOf;
  // Each model and test's results, in table order.
  const byCell = results.cells.map(() => column('u32'));
  for (let k = 0; k < results.size; k++) byCell[results.cellOf[k]!]!.push(k);
  const cellKey = (c: number) => `${results.cells[c]!.model}\u0000${results.cells[c]!.test}`;
  const cellCodes = new Map(results.cells.map((_, c) => [cellKey(c), c]));
  const cells: Cell[] = [];
  const groups: GroupCell[] = [];
  const failures: FailureExample[] = [];
  for (const [key, c] of [...cellCodes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const { model, test } = results.cells[c]!;
    const rs = byCell[c]!.view();
    cells.push(cell(model, test, null, rs, trialCount.get(key) ?? 0));
    for (const lang of splitLanguages(test)) {
      const mine = rs.filter(k => items.language(itemOf[k]!) === lang);
      if (mine.length) cells.push(cell(model, test, lang, mine, trialCount.get(`${key}\u0000${lang}`) ?? 0));
    }
    if (!whole) continue;
    // Each group's items in table order, gathered one item at a time (not one object per item and field at once).
    const byGroup = new Map<string, Column<Uint32Array>>();
    for (const k of rs) {
      for (const [f, v] of items.groupValues(itemOf[k]!)) {
        const gk = `${f}\u0000${v}`;
        (byGroup.get(gk) ?? byGroup.set(gk, column('u32', 16)).get(gk)!).push(k);
      }
    }
    for (const [gk, xs] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [field, value] = gk.split('\u0000') as [string, string];
      const g = cell(model, test, null, xs.view(), 0);
      groups.push({ ...g, field, value, small: g.n < SMALL_GROUP });
    }
    // Published examples come from public items only; private items never leave the store.
    const wrong = [...rs].flatMap(k => {
      const item = items.publicItem(itemOf[k]!);
      const value = results.value(k);
      return item && value !== null && value < 1 ? [{ k, item, value }] : [];
    }).sort((a, b) => (a.value - b.value) || (a.item.id < b.item.id ? -1 : 1))
      .slice(0, o.examplesPer ?? 5);
    for (const { k, item, value } of wrong) {
      const answer = clipText(results.lastAnswer(k) ?? '', MAX_REPORT_TEXT);
      const input = clipJson(item.input as JsonValue, MAX_REPORT_TEXT);
      const expected = (item.accepted ?? item.references ?? []).map(x => clipText(x, MAX_REPORT_TEXT));
      failures.push({
        model, test, itemId: item.id, input: input.value, prompt: promptOf(o.tests.get(test), item), expected: expected.map(x => x.text),
        answer: answer.text, answerLength: answer.length, truncated: answer.truncated || input.truncated || expected.some(x => x.truncated),
        value, reason: clipText(results.lastReason(k) ?? '', MAX_REPORT_TEXT).text,
      });
    }
  }

  const trialFailures = whole && stored.failedTrials.length ? failureGroups(stored.failedTrials, await privateItemTexts(store, runId), run.config.models.map(m => m.alias)) : [];
  // Judge calls belong to no model under test; the explanation section reports their cost.
  const costByModel = stored.costs.byModel();
  // Summed over every result of the model in table order, as each model's figures always were.
  const perModel = new Map<string, { correct: number; failed: number }>();
  for (let k = 0; k < results.size; k++) {
    const model = results.cells[results.cellOf[k]!]!.model;
    const m = perModel.get(model) ?? perModel.set(model, { correct: 0, failed: 0 }).get(model)!;
    m.correct += results.value(k) ?? 0;
    m.failed += results.failed(k);
  }
  const models: ModelInfo[] = run.config.models.map(m => {
    const { correct, failed } = perModel.get(m.alias) ?? { correct: 0, failed: 0 };
    const priced = !unpricedModels.has(m.alias);
    const costUsd = priced ? costByModel.get(m.alias) ?? 0 : null;
    return {
      alias: m.alias, spec: m.spec, isBaseline: run.config.baselines ? run.config.baselines.includes(m.alias) : m.provider === 'baseline', priced,
      unpricedReason: priced ? null : unpricedReason(run.prices, m, priceOptions(m.alias)) ?? null, costUsd,
      costPerCorrect: costUsd !== null && correct > 0 ? costUsd / correct : null, failed,
    };
  });
  const testNames = stored.tests;
  const rows: ReportRow[] = testNames.flatMap((test): ReportRow[] => {
    const langs = splitLanguages(test);
    return langs.length ? langs.map(language => ({ test, language, label: `${test} · ${language}` })) : [{ test, language: null, label: test }];
  });
  const explained = stored.explanation.report({
    judgeCostUsd: stored.costs.judges(), models: run.config.models.map(m => m.alias), resamples, seed, examplesPer: o.examplesPer ?? 5,
  });
  // Examples come from public items, which the report holds whole.
  const publicById = new Map([...items.publicItems()].map(item => [item.id, item] as const));
  const explanations = explained && {
    ...explained,
    examples: explained.examples.map(x => ({ ...x, prompt: promptOf(o.tests.get(explained.test), publicById.get(x.itemId)!) })),
  };
  const unpriced = [
    ...run.config.models.filter(m => unpricedModels.has(m.alias)).map(m => m.spec),
    ...(explanations?.judges ?? []).filter(j => !priceFor(run.prices, j.spec)).map(j => j.spec),
  ].filter((x, i, all) => all.indexOf(x) === i);
  const cellFor = (model: string, test: string, language: string | null) => cells.find(c => c.model === model && c.test === test && c.language === language);
  // A model's score per item (by hash) on a test, or on one language of it: made only for the pairs compared.
  const valuesOf = (language: string | null) => (model: string, test: string) => {
    const c = cellCodes.get(`${model}\u0000${test}`);
    const m = new Map<string, number>();
    for (const k of c === undefined ? [] : byCell[c]!.view()) {
      const v = results.value(k);
      if (v !== null && (language === null || items.language(itemOf[k]!) === language)) m.set(items.hash(itemOf[k]!), v);
    }
    return m.size ? m : undefined;
  };
  const comparisons = !whole ? [] : [
    ...suiteComparisons({ tests: testNames, models, values: valuesOf(null), resamples, seed, interval: (model, test) => cellFor(model, test, null) }),
    ...testNames.flatMap(test => splitLanguages(test).flatMap(language => suiteComparisons({
      tests: [test], models, values: valuesOf(language), resamples, seed, language,
      interval: (model, t) => cellFor(model, t, language),
    }))),
  ];
  const scorerOf = (test: string) => {
    for (let k = 0; k < results.size; k++) if (results.cells[results.cellOf[k]!]!.test === test && results.scorer(k)) return results.scorer(k);
    return undefined;
  };
  return {
    // A run stored as running that no process works on (killed) is stopped, as `paideia runs` says.
    runId, status: (await runInterrupted(store, run)) ? 'stopped' : run.status, generatedAt: new Date().toISOString(), config: reportConfig(run.config),
    prices: { source: run.prices.source, date: run.prices.date }, models,
    tests: testNames.map(name => ({
      name, description: o.tests.get(name)?.description ?? '', scorer: scorerOf(name),
    })),
    rows, cells, groups, failures, trialFailures, unpriced, explanations, comparisons,
    // An unpriced model's calls may carry a list price charged before the endpoint was known: left out.
    totalCostUsd: stored.costs.total(model => unpricedModels.has(model)),
    interval: { method: 'bootstrap-percentile', resamples, level: 0.95, seed },
  };
}

/**
 * The stored errors of failed trials (the newest record of each step, as the engine reads them;
 * the first step whose newest record is an error), grouped per model, test and error.
 */
function failureGroups(failed: FailedTrial[], privateTexts: string[], modelOrder: string[]): TrialFailureGroup[] {
  const scrub = privateTextScrubber(privateTexts);
  const out = new Map<string, TrialFailureGroup>();
  for (const t of failed) {
    const full = scrub(t.error?.message ?? '(no error message was stored)');
    const kind = t.error?.kind ?? null;
    const statusCode = t.error?.statusCode ?? null;
    const key = [t.model, t.test, kind ?? '', statusCode ?? '', full].join('\u0000');
    const g = out.get(key);
    if (g) {
      g.count++;
      continue;
    }
    const m = clipText(full, MAX_REPORT_TEXT);
    out.set(key, { model: t.model, test: t.test, message: m.text, kind, statusCode, count: 1, exampleTrialId: t.id, messageLength: m.length, truncated: m.truncated });
  }
  const order = (m: string) => (modelOrder.includes(m) ? modelOrder.indexOf(m) : modelOrder.length);
  return [...out.values()].sort((a, b) => order(a.model) - order(b.model) || (a.test < b.test ? -1 : a.test > b.test ? 1 : 0) || b.count - a.count);
}

function reportConfig(config: RunRecord['config']): ReportConfig {
  const { suites, itemHashes, ...rest } = config;
  return { suites, items: itemHashes.length, ...rest };
}
