import { PAIDEIA_VERSION } from '../core/version.js';
import {
  ConfigError, contentHash, type ConfigIssue, type VersionedItem, type ChatModel, type ChatParams, type Item, type ModelSpec, type PriceTable,
  type RunRecord, type Store, type TestDefinition,
} from '../core/index.js';
import { costOf, estimateCost, priceFor } from '../providers/pricing.js';
import type { ScorerRegistry } from '../scoring/registry.js';
import { loadItems } from '../suites/load.js';
import { executeRun, type CostModel, type RunEvent, type RunSummary } from './execute.js';
import { acquireRunLease } from './lease.js';
import { planTrials } from './plan.js';


export interface RunSuiteOptions {
  store: Store;
  /** Item files or folders; ignored when resuming (the stored items are used). */
  suites: string[];
  models: ModelSpec[];
  repeats: number;
  seed: number;
  params: ChatParams;
  /** Only these tests. */
  tests?: string[];
  testDefinitions: ReadonlyMap<string, TestDefinition>;
  scorers: ScorerRegistry;
  /** Builds a ready (wrapped) model for a spec; the CLI wires providers and middleware here. */
  createModel: (spec: ModelSpec) => ChatModel;
  prices: PriceTable;
  costCapUsd?: number;
  useCache?: boolean;
  retryErrors?: boolean;
  /** Continue this stored run (its stored config and items; flags that change the plan are ignored). */
  resumeRunId?: string;
  concurrency: (provider: string) => number;
  signal?: AbortSignal;
  /** Start no new call; calls in flight finish and are stored. */
  stopSignal?: AbortSignal;
  onEvent?: (e: RunEvent) => void;
}

/**
 * Plan a run from item files (or reopen a stored one), then execute it. The run id is the hash of
 * what the run is asked to do, so running the same command again resumes the same run.
 */
export async function runSuite(o: RunSuiteOptions): Promise<{ run: RunRecord; summary: RunSummary }> {
  let run: RunRecord;
  let items: Array<{ item: Item; hash: string }>;
  if (o.resumeRunId) {
    const stored = await o.store.getRun(o.resumeRunId);
    if (!stored) throw new ConfigError([{ field: '--resume', message: `no run "${o.resumeRunId}" in ${o.store.url}` }]);
    run = stored;
    items = await o.store.listRunItems(run.id);
    const drift = run.config.models.filter(m => run.config.endpoints?.[m.alias] !== o.createModel(m).endpoint);
    if (drift.length) {
      throw new ConfigError(drift.map(m => ({
        field: '--base-url',
        message: `run ${run.id} called ${m.alias} at ${run.config.endpoints?.[m.alias] ?? '(no endpoint)'}, but this resume would call ${o.createModel(m).endpoint ?? '(no endpoint)'}; resume with the same endpoint or start a new run`,
      })));
    }
  } else {
    const all = loadItems(o.suites);
    const loaded = all.filter(v => !o.tests || o.tests.includes(v.item.test));
    if (loaded.length === 0) {
      const present = [...new Set(all.map(v => v.item.test))].sort().join(', ');
      throw new ConfigError([{ field: '--tests', message: `no items of test(s) ${o.tests?.join(', ')} in ${o.suites.join(', ')} (it holds: ${present})` }]);
    }
    checkInputs(loaded, o.testDefinitions);
    const endpoints: Record<string, string> = {};
    for (const m of o.models) {
      const endpoint = o.createModel(m).endpoint;
      if (endpoint) endpoints[m.alias] = endpoint;
    }
    const config = {
      suites: o.suites, itemHashes: [...new Set(loaded.map(v => v.hash))].sort(), models: o.models,
      ...(Object.keys(endpoints).length ? { endpoints } : {}),
      repeats: o.repeats, seed: o.seed, params: o.params, ...(o.tests ? { tests: o.tests } : {}),
    };
    const now = new Date().toISOString();
    run = await o.store.openRun({
      id: `run-${contentHash({ ...config, suites: undefined })}`, createdAt: now, updatedAt: now, status: 'running',
      config, prices: o.prices, paideiaVersion: PAIDEIA_VERSION,
    });
    await o.store.saveItems(loaded);
    items = loaded;
  }
  // One process at a time per run: a second one would call the same trials again.
  const lease = await acquireRunLease(o.store, run.id);
  try {
    return await execute(o, run, items);
  } finally {
    await lease.release();
  }
}

async function execute(o: RunSuiteOptions, run: RunRecord, items: Array<{ item: Item; hash: string }>): Promise<{ run: RunRecord; summary: RunSummary }> {
  const models = new Map(run.config.models.map(m => [m.alias, o.createModel(m)]));
  const trials = planTrials({
    runId: run.id, items, models: run.config.models, tests: o.testDefinitions, repeats: run.config.repeats,
    seed: run.config.seed, params: run.config.params,
    applicable: (spec, { item }) => {
      const needs = models.get(spec.alias)?.needsHints;
      if (!needs?.length) return true;
      const hints = o.testDefinitions.get(item.test)?.render(item, [])?.hints;
      return needs.every(h => hints?.[h] !== undefined);
    },
  });
  await o.store.saveTrials(trials);
  await o.store.setRunStatus(run.id, 'running');
  const usedTests = new Set(trials.map(t => t.test));
  // Costs use the prices stored with the run, so a resumed run is priced as it started.
  const priceOf = new Map(run.config.models.map(m => [m.alias, priceFor(run.prices, m.spec)]));
  const cost: CostModel = {
    costOf: (alias, usage) => {
      const p = priceOf.get(alias);
      return p ? costOf(p, usage) : 0;
    },
    estimate: (alias, request) => {
      const p = priceOf.get(alias);
      return p ? estimateCost(p, request) : 0;
    },
  };
  const summary = await executeRun({
    store: o.store, runId: run.id, trials, items: new Map(items.map(v => [v.hash, v.item])), tests: o.testDefinitions,
    models, scorers: o.scorers.forTests([...o.testDefinitions.values()].filter(t => usedTests.has(t.name))), cost,
    concurrency: o.concurrency, ...(o.costCapUsd !== undefined ? { costCapUsd: o.costCapUsd } : {}),
    useCache: o.useCache ?? true, retryErrors: o.retryErrors ?? false,
    ...(o.signal ? { signal: o.signal } : {}), ...(o.stopSignal ? { stopSignal: o.stopSignal } : {}),
    ...(o.onEvent ? { onEvent: o.onEvent } : {}),
  });
  const status = summary.stoppedBy || summary.pending > 0 ? 'stopped' : summary.done === 0 && summary.failed > 0 ? 'failed' : 'completed';
  const note = summary.stoppedBy === 'cost-cap' ? `cost cap $${o.costCapUsd} reached` : summary.stoppedBy === 'interrupt' ? 'interrupted' : summary.failed ? `${summary.failed} trial(s) failed` : undefined;
  await o.store.setRunStatus(run.id, status, note);
  return { run: { ...run, status }, summary };
}

/**
 * Every item must render under its test before anything runs: an input field the prompt template
 * needs but the item lacks is bad input (exit 2, file and line), not a crash mid-run.
 */
function checkInputs(items: VersionedItem[], tests: ReadonlyMap<string, TestDefinition>): void {
  const issues: ConfigIssue[] = [];
  for (const v of items) {
    const test = tests.get(v.item.test);
    if (!test) continue; // planTrials names unknown tests
    try {
      test.render(v.item, []);
    } catch (e) {
      const message = (e as Error).message;
      const field = /\b(input(?:\.[\w-]+)*)/.exec(message)?.[1] ?? 'input';
      issues.push({ file: v.file, line: v.line, field, message: `test ${test.name} cannot use this item: ${message.replace(/^item [^:]+: /, '')}` });
    }
  }
  if (issues.length) throw new ConfigError(issues);
}
