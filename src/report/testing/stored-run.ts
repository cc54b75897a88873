import { parseModelSpec, type ChatModel } from '../../core/index.js';
import { runSuite } from '../../suites/run.js';
import { builtInScorers } from '../../scoring/builtins.js';
import { openStore } from '../../store/index.js';
import { BUILT_IN_TESTS } from '../../suites/tests/index.js';
import { buildReportData, type ReportData } from '../index.js';

/** Run real suites against the given models into an in-memory store and build the report data. */
export async function reportOfRun(suites: string[], models: Record<string, ChatModel>, repeats = 1): Promise<ReportData> {
  const store = await openStore('sqlite::memory:');
  try {
    const specs = Object.keys(models).map(m => parseModelSpec(m));
    const { run } = await runSuite({
      store, suites, models: specs, repeats, seed: 11, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(),
      createModel: s => models[s.spec] ?? models[`${s.alias}=${s.spec}`]!, prices: { source: 'test', date: '2026-11-29', models: { 'baseline:*': { input: 0, output: 0 } } },
      concurrency: () => 4, retryErrors: false,
    });
    return await buildReportData(store, run.id, { tests: BUILT_IN_TESTS, resamples: 200 });
  } finally {
    await store.close();
  }
}
