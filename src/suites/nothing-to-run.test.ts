import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ConfigError } from '../core/index.js';
import { createBaselineModel } from '../providers/baseline/index.js';
import { builtInScorers } from '../scoring/builtins.js';
import { openStore } from '../store/index.js';
import { runSuite } from './run.js';
import { BUILT_IN_TESTS } from './tests/index.js';

it('refuses a run in which no model can answer any item (bad input, nothing stored), instead of a silent run of nothing', async () => {
  const store = await openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-nothing-')), 'r.db')}`);
  const run = (tests: string[]) => runSuite({
    store, suites: ['data/samples'], tests, models: [{ alias: 'r', provider: 'baseline', model: 'random', spec: 'baseline:random' }],
    repeats: 1, seed: 1, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel: () => createBaselineModel('random'),
    prices: { source: 'test', date: '2026-12-05', models: {} }, concurrency: () => 4,
  });
  // baseline:random picks among an item's options: grammar forms give none.
  const error = await run(['grammar_forms']).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).message).toMatch(/field "--model": nothing to run: no model can answer any item of grammar_forms \(baseline:random needs the "options" of an item/);
  expect(await store.listRuns()).toEqual([]);
  // Exercises give options: the same model runs them.
  const { summary } = await run(['exercises']);
  expect(summary.done).toBeGreaterThan(0);
  await store.close();
});
