import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { RunRecord, Trial } from '../core/index.js';
import { openStore } from '../store/index.js';
import { runInterrupted } from './runs-summary.js';
import { buildReportData } from './data.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';

const now = new Date().toISOString();
const run: RunRecord = {
  id: 'run-1', kind: 'suite', createdAt: now, updatedAt: now, status: 'running',
  config: { suites: [], itemHashes: [], models: [], repeats: 1, seed: 1, params: {} },
  prices: { source: 'built-in', date: '2026-01-01', models: {} }, paideiaVersion: '0.0.0',
};
const trial: Trial = { id: 't1', runId: 'run-1', index: 0, itemId: 'i', itemHash: 'h', test: 'grammar_forms', modelAlias: 'm', modelSpec: 'openai:m', promptVersion: '1', repeat: 0, seed: 1 };

describe('runInterrupted', () => {
  it('a run changed just now is interrupted at once when its claims are held by a process that is gone, not while one lives or before any claim', async () => {
    // The pid of a process that has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const later = Date.now() + 60_000;
    for (const [holder, expected] of [[undefined, false], [process.pid, false], [Number(gone), true]] as const) {
      const store = await openStore('sqlite::memory:');
      try {
        const stored = await store.openRun(run);
        await store.saveTrials([trial]);
        if (holder !== undefined) await store.claimTrials('run-1', { workerId: 'w', pid: holder, host: hostname() }, ['t1'], later);
        expect(await runInterrupted(store, stored), `holder ${holder}`).toBe(expected);
      } finally {
        await store.close();
      }
    }
  });

  it('the report of a run its killed process left "running" says stopped, as paideia runs does; one a live process runs says running', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    for (const [holder, expected] of [[Number(gone), 'stopped'], [process.pid, 'running']] as const) {
      const store = await openStore('sqlite::memory:');
      try {
        await store.openRun(run);
        await store.saveTrials([trial]);
        await store.claimTrials('run-1', { workerId: 'w', pid: holder, host: hostname() }, ['t1'], Date.now() + 60_000);
        expect((await buildReportData(store, 'run-1', { tests: BUILT_IN_TESTS })).status, `holder ${holder}`).toBe(expected);
      } finally {
        await store.close();
      }
    }
  });
});
