import { describe, expect, it } from 'vitest';
import type { CallRecord, RunRecord, Store, Trial, VersionedItem } from '../core/index.js';

/** One conformance suite for every Store implementation (hono's common.case.test.ts pattern). */
export function storeConformance(name: string, open: () => Promise<Store>): void {
  const run: RunRecord = {
    id: 'run-1', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', status: 'running',
    config: { suites: ['s.jsonl'], itemHashes: ['h1'], models: [], repeats: 1, seed: 1, params: {} },
    prices: { source: 'built-in', date: '2026-01-01', models: {} }, paideiaVersion: '0.0.0',
  };
  const item: VersionedItem = {
    hash: 'h1',
    item: {
      id: 'i1', test: 'grammar_forms', language: 'ga', input: { lemma: 'iarnród' }, accepted: ['iarnróid'],
      source: 'x', licence: 'ODbL-1.0', evidence: 'bunamo-form', visibility: 'public', contamination: 'public-source',
      human_checked: false, extra_field: { kept: true },
    },
  };
  const trial: Trial = {
    id: 't1', runId: 'run-1', index: 0, itemId: 'i1', itemHash: 'h1', test: 'grammar_forms', modelAlias: 'm',
    modelSpec: 'baseline:gold', promptVersion: '1', repeat: 0, seed: 7,
  };
  const call = (over: Partial<CallRecord>): CallRecord => ({
    runId: 'run-1', trialId: 't1', step: 0, requestHash: 'rq', request: { messages: [{ role: 'user', content: 'é' }], params: {} },
    status: 'ok', result: { text: 'iarnróid', warnings: [], usage: { inputTokens: 3, outputTokens: 1 } },
    attempts: 1, latencyMs: 1.5, costUsd: 0.001, cached: false, createdAt: '2026-01-01T00:00:01.000Z', ...over,
  });

  describe(`store conformance: ${name}`, () => {
    it('keeps the first record of a run and reports status changes', async () => {
      const s = await open();
      expect(await s.openRun(run)).toEqual(run);
      expect((await s.openRun({ ...run, status: 'completed', note: 'other' })).status).toBe('running');
      await s.setRunStatus('run-1', 'stopped', 'cost cap');
      const got = await s.getRun('run-1');
      expect([got?.status, got?.note]).toEqual(['stopped', 'cost cap']);
      expect((await s.listRuns()).map(r => r.id)).toEqual(['run-1']);
      expect(await s.getRun('nope')).toBeUndefined();
      await s.close();
    });

    it('round-trips items with unknown fields, trials, calls and the cache', async () => {
      const s = await open();
      await s.openRun(run);
      await s.saveItems([item, item]);
      await s.saveTrials([trial, trial]);
      expect(await s.listRunItems('run-1')).toEqual([item]);
      expect(await s.listTrials('run-1')).toEqual([trial]);
      await s.saveCall(call({ status: 'error', result: undefined, error: { name: 'ProviderCallError', message: '500', statusCode: 500 } }));
      await s.saveCall(call({}));
      const calls = await s.listCalls('run-1');
      expect(calls.map(c => c.status)).toEqual(['error', 'ok']);
      expect(calls[1]).toEqual(call({}));
      expect(calls[0]?.error?.statusCode).toBe(500);
      expect((await s.findCachedResult('rq'))?.text).toBe('iarnróid');
      expect(await s.findCachedResult('other')).toBeUndefined();
      await s.close();
    });

    it('replaces a score of the same scorer version and keeps null (unscored) apart from 0', async () => {
      const s = await open();
      const scorer = { name: 'exact', version: '1', args: {} };
      await s.saveScores([{ runId: 'run-1', trialId: 't1', scorer, value: 0, reason: 'wrong' }]);
      await s.saveScores([{ runId: 'run-1', trialId: 't1', scorer, value: null, reason: 'unparseable' }]);
      await s.saveScores([{ runId: 'run-1', trialId: 't1', scorer: { ...scorer, version: '2' }, value: 1, details: { a: [1] } }]);
      const scores = await s.listScores('run-1');
      expect(scores).toHaveLength(2);
      expect(scores.find(x => x.scorer.version === '1')?.value).toBeNull();
      expect(scores.find(x => x.scorer.version === '2')?.details).toEqual({ a: [1] });
      await s.close();
    });

    it('swaps a run lease only from the holder it expects', async () => {
      const s = await open();
      const lease = (holderId: string) => ({ holderId, pid: 1, host: 'h', since: '2026-01-01T00:00:00.000Z', expiresAt: 5 });
      expect(await s.getRunLease('run-1')).toBeUndefined();
      expect(await s.swapRunLease('run-1', 'someone', lease('a'))).toBe(false);
      expect(await s.swapRunLease('run-1', null, lease('a'))).toBe(true);
      expect(await s.swapRunLease('run-1', null, lease('b'))).toBe(false);
      expect(await s.getRunLease('run-1')).toEqual(lease('a'));
      expect(await s.swapRunLease('run-1', 'a', lease('b'))).toBe(true);
      expect(await s.swapRunLease('run-1', 'b', null)).toBe(true);
      expect(await s.getRunLease('run-1')).toBeUndefined();
      await s.close();
    });

    it('upserts artifacts by run, kind and key', async () => {
      const s = await open();
      await s.putArtifact('run-1', 'dialogue', 'b', { turns: 1 });
      await s.putArtifact('run-1', 'dialogue', 'a', [1, 2]);
      await s.putArtifact('run-1', 'dialogue', 'b', { turns: 2 });
      expect(await s.listArtifacts('run-1', 'dialogue')).toEqual([{ key: 'a', value: [1, 2] }, { key: 'b', value: { turns: 2 } }]);
      expect(await s.listArtifacts('run-1', 'other')).toEqual([]);
      await s.close();
    });
  });
}
