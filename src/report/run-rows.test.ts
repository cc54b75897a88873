import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { privateItemTexts } from './run-items.js';
import { readReportRows } from './run-rows.js';
import { pinnedRun } from './testing/pinned-run.js';

it('reads the same rows of a run whatever the page size: each trial, call and score counted once across pages', async () => {
  const store = await openStore('sqlite::memory:');
  const runId = await pinnedRun(store, mkdtempSync(join(tmpdir(), 'paideia-rows-')));
  const headline = new Map([...BUILT_IN_TESTS.values()].map(t => [t.name, t.scorers[0]?.name ?? '']));
  const view = async (pageSize: number) => {
    const r = await readReportRows(store, runId, headline, pageSize);
    return {
      items: Array.from({ length: r.items.size }, (_, i) => [r.items.hash(i), r.items.groupValues(i), r.items.publicItem(i)?.id]),
      results: Array.from({ length: r.results.size }, (_, k) => ({
        ...r.results.cells[r.results.cellOf[k]!], item: r.items.hash(r.results.itemOf[k]!), value: r.results.value(k), consistency: r.results.consistency(k),
        failed: r.results.failed(k), unscored: r.results.unscored(k), costUsd: r.results.costUsd(k), scorer: r.results.scorer(k),
        answer: r.results.lastAnswer(k), reason: r.results.lastReason(k),
      })), tests: r.tests, languages: r.languages, trialCount: r.trialCount, failedTrials: r.failedTrials,
      // Every example there is, so the pages' answers and reasons are all compared.
      explanation: r.explanation.report({ judgeCostUsd: 0, models: ['good', 'half', 'twin', 'baseline:copy', 'baseline:gold'], resamples: 100, seed: 3, examplesPer: 1000 }), costs: [...r.costs.byModel()], total: r.costs.total(m => m === 'twin'), judges: r.costs.judges(),
      privateTexts: await privateItemTexts(store, runId, pageSize),
    };
  };
  const whole = await view(100_000);
  // Enough rows to compare: failures of both kinds, judged explanations, private items.
  expect(whole.failedTrials.length).toBeGreaterThan(10);
  const judged = whole.explanation!.cells.reduce((n, c) => n + c.counts.judged, 0);
  expect(judged).toBeGreaterThan(100);
  expect(whole.explanation!.examples.length).toBeGreaterThan(3);
  expect(whole.privateTexts.length).toBeGreaterThan(0);
  // 7 and 13 split items, trials, their calls and their scores at many places.
  for (const pageSize of [7, 13]) expect(await view(pageSize)).toEqual(whole);
  await store.close();
});
