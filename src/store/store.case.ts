import { describe, expect, it } from 'vitest';
import type { BlobRef, CallRecord, RunRecord, Store, Trial, VersionedItem } from '../core/index.js';

/** One conformance suite for every Store implementation (hono's common.case.test.ts pattern). */
export function storeConformance(name: string, open: () => Promise<Store>): void {
  const run: RunRecord = {
    id: 'run-1', kind: 'suite', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', status: 'running',
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
      // Read back with its store sequence number, which judgments point at.
      expect(calls[1]).toEqual({ ...call({}), seq: calls[1]!.seq });
      expect(calls[1]!.seq).toBeGreaterThan(calls[0]!.seq!);
      expect(calls[0]?.error?.statusCode).toBe(500);
      // The endpoint a call went to comes back (a resumed run may move to another server).
      await s.saveCall(call({ requestHash: 'rq-moved', endpoint: 'http://127.0.0.1:9/v1' }));
      expect((await s.listCalls('run-1')).find(c => c.requestHash === 'rq-moved')?.endpoint).toBe('http://127.0.0.1:9/v1');
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

    it('claims trials for one worker at a time, takes over expired claims, and fences writes', async () => {
      const s = await open();
      await s.openRun(run);
      await s.saveTrials([trial]);
      const a = { workerId: 'a', pid: 1, host: 'h' };
      const b = { workerId: 'b', pid: 2, host: 'h' };
      const later = Date.now() + 60_000;
      expect(await s.claimTrials('run-1', a, ['t1', 't2'], later)).toEqual(['t1', 't2']);
      expect(await s.claimTrials('run-1', b, ['t1'], later)).toEqual([]);
      expect((await s.listClaimHolders('run-1')).map(h => [h.workerId, h.trials])).toEqual([['a', 2]]);
      await s.saveCall(call({}), { workerId: 'a' });
      await expect(s.saveCall(call({}), { workerId: 'b' })).rejects.toThrow(/no longer holds run run-1/);
      expect(await s.renewClaims('run-1', 'a', Date.now() - 1)).toBe(2);
      // Expired: another worker may take it, and the first one's writes are refused from then on.
      expect(await s.claimTrials('run-1', b, ['t1'], later)).toEqual(['t1']);
      await expect(s.saveTrialResult({ runId: 'run-1', trialId: 't1', status: 'done' }, { workerId: 'a' })).rejects.toThrow(/taken over/);
      expect(await s.renewClaims('run-1', 'a', later)).toBe(1);
      await s.saveTrialResult({ runId: 'run-1', trialId: 't1', status: 'done', scores: [{ runId: 'run-1', trialId: 't1', scorer: { name: 'exact', version: '1', args: {} }, value: 1 }] }, { workerId: 'b' });
      expect(await s.listTrialStatuses('run-1')).toEqual(new Map([['t1', 'done']]));
      expect((await s.listScores('run-1')).map(x => x.value)).toEqual([1]);
      await s.releaseClaims('run-1', 'a');
      await s.releaseClaims('run-1', 'b');
      expect(await s.listClaimHolders('run-1')).toEqual([]);
      await s.close();
    });

    it('hands out open trials as a work queue: plan order, judges once their target is done, none twice', async () => {
      const s = await open();
      await s.openRun(run);
      const t = (id: string, index: number, target?: string): Trial => ({ ...trial, id, index, ...(target ? { kind: 'judge', target } : {}) });
      await s.saveTrials([t('t1', 0), t('t2', 1), t('j1', 2, 't1'), t('t3', 3), t('t4', 4)]);
      const [a, b, c] = ['a', 'b', 'c'].map((id, i) => ({ workerId: id, pid: i + 1, host: 'h' }));
      const later = Date.now() + 60_000;
      expect(await s.claimNextTrials('run-1', a!, 1, later)).toEqual(['t1']);
      // Workers claiming at once split what is left; the judge waits for its target.
      const [forB, forC] = await Promise.all([s.claimNextTrials('run-1', b!, 2, later), s.claimNextTrials('run-1', c!, 2, later)]);
      expect([...forB!, ...forC!].sort()).toEqual(['t2', 't3', 't4']);
      expect(await s.claimNextTrials('run-1', c!, 5, later)).toEqual(forC);
      await s.saveTrialResult({ runId: 'run-1', trialId: 't1', status: 'done' }, { workerId: 'a' });
      await s.releaseClaims('run-1', 'a');
      expect(await s.claimNextTrials('run-1', a!, 5, later)).toEqual(['j1']);
      // An expired claim goes back to the queue.
      await s.renewClaims('run-1', 'b', Date.now() - 1);
      expect(await s.claimNextTrials('run-1', a!, 5, later)).toEqual(['t2', 'j1', 't3', 't4'].filter(id => id === 'j1' || forB!.includes(id)));
      await s.saveTrialResult({ runId: 'run-1', trialId: 'j1', status: 'failed' }, { workerId: 'a' });
      expect(await s.claimNextTrials('run-1', a!, 5, later)).toEqual(forB);
      await s.close();
    });

    it('holds budget reservations against the stored spend, atomically', async () => {
      const s = await open();
      await s.openRun(run);
      await s.saveCall(call({ costUsd: 0.004 }));
      expect(await s.spentUsd('run-1')).toBeCloseTo(0.004, 12);
      expect(await s.reserveBudget('run-1', { id: 'r1', workerId: 'a', amountUsd: 0.005 }, 0.01)).toBe(true);
      expect(await s.reserveBudget('run-1', { id: 'r2', workerId: 'b', amountUsd: 0.002 }, 0.01)).toBe(false);
      expect(await s.reservedUsd('run-1')).toBeCloseTo(0.005, 12);
      await s.releaseBudget('run-1', 'r1');
      expect(await s.reserveBudget('run-1', { id: 'r2', workerId: 'b', amountUsd: 0.002 }, 0.01)).toBe(true);
      await s.releaseClaims('run-1', 'b');
      expect(await s.reservedUsd('run-1')).toBe(0);
      await s.close();
    });

    it('lets no two reservations racing for the last room under the cap both take it', async () => {
      const s = await open();
      await s.openRun(run);
      const asks = Array.from({ length: 24 }, (_, i) => s.reserveBudget('run-1', { id: `r${i}`, workerId: `w${i % 3}`, amountUsd: 0.001 }, 0.0105));
      expect((await Promise.all(asks)).filter(Boolean)).toHaveLength(10);
      expect(await s.reservedUsd('run-1')).toBeCloseTo(0.01, 12);
      await s.close();
    });

    it('pages calls by sequence number and reads one trial\'s calls', async () => {
      const s = await open();
      for (let i = 0; i < 5; i++) await s.saveCall(call({ trialId: `t${i % 2}`, step: i }));
      const first = await s.listCalls('run-1', { limit: 2 });
      const rest = await s.listCalls('run-1', { afterSeq: first.at(-1)!.seq!, limit: 10 });
      expect([...first, ...rest].map(c => c.step)).toEqual([0, 1, 2, 3, 4]);
      expect((await s.listCalls('run-1', { trialIds: ['t1'] })).map(c => c.step)).toEqual([1, 3]);
      await s.close();
    });

    it('reads a page of a run: top-level trials in plan order with their count, their judges, and trials, statuses, scores and judgments of given trials, as the whole-run reads filtered', async () => {
      const s = await open();
      await s.openRun(run);
      await s.openRun({ ...run, id: 'run-2' });
      await s.openRun({ ...run, id: 'run-empty' });
      // Plan order differs from insertion and id order; judges sit between the trials they judge.
      const top = [4, 0, 3, 1, 2].map(i => ({ ...trial, id: `t${i}`, index: i * 10 }));
      const judge = (id: string, target: string, index: number): Trial => ({ ...trial, id, index, kind: 'scenario-judge', target });
      const judges = [judge('j3a', 't3', 31), judge('j1b', 't1', 12), judge('j1a', 't1', 11), judge('jj', 'j1a', 13)];
      await s.saveTrials([...top, ...judges, { ...trial, runId: 'run-2', id: 't1', index: 0 }, { ...trial, runId: 'run-2', id: 'j-other', target: 't1', index: 1 }]);
      for (const id of ['t1', 't3', 'j1a']) await s.saveTrialResult({ runId: 'run-1', trialId: id, status: id === 't3' ? 'failed' : 'done' });
      await s.saveTrialResult({ runId: 'run-2', trialId: 't1', status: 'failed' });
      const scorer = (name: string) => ({ name, version: '1', args: { k: name } });
      await s.saveScores(['t1', 't2', 't3'].flatMap(id => [scorer('b'), scorer('a')].map(sc => ({ runId: 'run-1', trialId: id, scorer: sc, value: id === 't2' ? null : 0.5 }))));
      await s.saveScores([{ runId: 'run-2', trialId: 't1', scorer: scorer('a'), value: 1 }]);
      const j = (trialId: string, targetTrialId: string, runId = 'run-1') => ({
        specVersion: 'paideia.judgment.v1' as const, runId, trialId, targetTrialId, rater: { alias: 'a', spec: 'openai:x' },
        promptVariant: 'v1', repeat: 0, fields: { clarity: 4 }, value: 0.75, callSeq: null, producer: { name: 'p', version: '1', args: {} },
      });
      await s.saveJudgments([j('j3a', 't3'), j('j1b', 't1'), j('j1a', 't1'), j('jj', 'j1a'), j('j-other', 't1', 'run-2')]);

      const all = await s.listTrials('run-1');
      const plan = all.filter(t => t.target === undefined);
      expect(plan.map(t => t.id)).toEqual(['t0', 't1', 't2', 't3', 't4']);
      expect(await s.listTrials('run-1', { trialIds: ['j1a', 't3', 't1', 'nope', 't1'] })).toEqual(all.filter(t => ['j1a', 't3', 't1'].includes(t.id)));
      expect(await s.listTrials('run-2', { trialIds: ['t1'] })).toEqual([{ ...trial, runId: 'run-2', id: 't1', index: 0 }]);
      expect(await s.listTrials('run-1', { trialIds: [] })).toEqual([]);
      expect(await s.listTopTrials('run-1', { offset: 0, limit: 2 })).toEqual({ trials: plan.slice(0, 2), total: 5 });
      expect(await s.listTopTrials('run-1', { offset: 2, limit: 2 })).toEqual({ trials: plan.slice(2, 4), total: 5 });
      expect(await s.listTopTrials('run-1', { offset: 4, limit: 10 })).toEqual({ trials: plan.slice(4), total: 5 });
      expect(await s.listTopTrials('run-1', { offset: 5, limit: 10 })).toEqual({ trials: [], total: 5 });
      expect(await s.listTopTrials('run-1', { offset: 99, limit: 10 })).toEqual({ trials: [], total: 5 });
      expect(await s.listTopTrials('run-empty', { offset: 0, limit: 10 })).toEqual({ trials: [], total: 0 });

      // Judges of the given trials only (a judge of a judge when its target is asked for), in plan order.
      const judgesOf = (ids: string[]) => all.filter(t => t.target !== undefined && ids.includes(t.target));
      expect((await s.listJudgeTrials('run-1', ['t1', 't3', 't0', 'nope'])).map(t => t.id)).toEqual(['j1a', 'j1b', 'j3a']);
      expect(await s.listJudgeTrials('run-1', ['t1', 't3', 't0', 'nope'])).toEqual(judgesOf(['t1', 't3', 't0', 'nope']));
      expect(await s.listJudgeTrials('run-1', ['j1a', 't1', 't1'])).toEqual(judgesOf(['j1a', 't1']));
      expect(await s.listJudgeTrials('run-1', [])).toEqual([]);
      expect(await s.listJudgeTrials('run-empty', ['t1'])).toEqual([]);

      const ids = ['t1', 't2', 't3', 'j1a', 'nope'];
      const statuses = await s.listTrialStatuses('run-1');
      expect([...statuses].sort()).toEqual([['j1a', 'done'], ['t1', 'done'], ['t3', 'failed']]);
      expect(await s.listTrialStatuses('run-1', { trialIds: ids })).toEqual(new Map([...statuses].filter(([id]) => ids.includes(id))));
      expect(await s.listTrialStatuses('run-1', { trialIds: ['t0', 't2'] })).toEqual(new Map());
      expect(await s.listTrialStatuses('run-1', { trialIds: [] })).toEqual(new Map());
      // Counted by kind and status, each group with its first trial's plan index, in that order.
      const count = (kind: string | null, status: string, trials: number, firstIndex: number) => ({ kind, status, trials, firstIndex });
      expect(await s.countTrialStatuses('run-1')).toEqual([
        count(null, 'pending', 3, 0), count(null, 'done', 1, 10), count('scenario-judge', 'done', 1, 11),
        count('scenario-judge', 'pending', 3, 12), count(null, 'failed', 1, 30),
      ]);
      expect(await s.countTrialStatuses('run-2')).toEqual([count(null, 'failed', 1, 0), count(null, 'pending', 1, 1)]);
      expect(await s.countTrialStatuses('run-empty')).toEqual([]);

      const scores = await s.listScores('run-1');
      expect(scores.map(x => `${x.trialId}:${x.scorer.name}`)).toEqual(['t1:a', 't1:b', 't2:a', 't2:b', 't3:a', 't3:b']);
      expect(await s.listScores('run-1', { trialIds: ['t3', 't1', 'nope'] })).toEqual(scores.filter(x => x.trialId !== 't2'));
      expect(await s.listScores('run-1', { trialIds: [] })).toEqual([]);
      expect(await s.listScores('run-2', { trialIds: ['t1'] })).toEqual([{ runId: 'run-2', trialId: 't1', scorer: scorer('a'), value: 1 }]);

      const judgments = await s.listJudgments('run-1');
      expect(judgments.map(x => x.trialId)).toEqual(['jj', 'j1a', 'j1b', 'j3a']);
      expect(await s.listJudgments('run-1', { targetTrialIds: ['t3', 't1'] })).toEqual(judgments.filter(x => x.targetTrialId !== 'j1a'));
      expect(await s.listJudgments('run-1', { targetTrialIds: ['j1a'] })).toEqual([j('jj', 'j1a')]);
      expect(await s.listJudgments('run-1', { targetTrialIds: [] })).toEqual([]);
      expect(await s.listJudgments('run-empty', { targetTrialIds: ['t1'] })).toEqual([]);
      await s.close();
    });

    it('points a judgment its step left without a call at its trial\'s newest stored call, whether written with the trial or later', async () => {
      const s = await open();
      await s.openRun(run);
      const judges = ['j1', 'j2', 'j3'].map((id, k): Trial => ({ ...trial, id, index: 10 + k, kind: 'judge', target: 't1' }));
      await s.saveTrials([trial, ...judges]);
      const j = (trialId: string, callSeq: number | null) => ({
        specVersion: 'paideia.judgment.v1' as const, runId: 'run-1', trialId, targetTrialId: 't1', rater: { alias: 'a', spec: 'openai:x' },
        promptVariant: 'v1', repeat: 0, fields: { clarity: 4 }, value: 0.75, callSeq, producer: { name: 'p', version: '1', args: {} },
      });
      // j1: a first answer and a format retry, then its judgment, queued together (as a run writes them).
      const written = [
        s.saveCall(call({ trialId: 'j1', step: 0, requestHash: 'a0' })), s.saveCall(call({ trialId: 'j1', step: 1, requestHash: 'a1' })),
        s.saveCall(call({ trialId: 'j2', step: 0, requestHash: 'b0' })),
        s.saveTrialResult({ runId: 'run-1', trialId: 'j1', status: 'done', judgments: [j('j1', null)] }),
        // j3 made no call (nothing to judge): its judgment points at none.
        s.saveTrialResult({ runId: 'run-1', trialId: 'j3', status: 'done', judgments: [j('j3', null)] }),
      ];
      await Promise.all(written);
      // j2's judgment re-derived later (a rescore), and one that names its call itself.
      await s.saveJudgments([j('j2', null), { ...j('j2', 1), producer: { name: 'p', version: '2', args: {} } }]);
      const seqOf = new Map((await s.listCalls('run-1')).map(c => [c.requestHash, c.seq]));
      const bySeq = new Map((await s.listJudgments('run-1')).map(x => [`${x.trialId}@${x.producer.version}`, x.callSeq]));
      expect(Object.fromEntries(bySeq)).toEqual({ 'j1@1': seqOf.get('a1'), 'j2@1': seqOf.get('b0'), 'j2@2': 1, 'j3@1': null });
      expect(seqOf.get('a1')).toBeGreaterThan(seqOf.get('a0')!);
      await s.close();
    });

    it('keeps judgments by judge trial and producer version, and blobs by content', async () => {
      const s = await open();
      const j = {
        specVersion: 'paideia.judgment.v1' as const, runId: 'run-1', trialId: 'j1', targetTrialId: 't1', rater: { alias: 'a', spec: 'openai:x' },
        promptVariant: 'v1', repeat: 0, fields: { clarity: 4 }, value: 0.75, callSeq: 3, producer: { name: 'p', version: '1', args: {} },
      };
      await s.saveJudgments([j, { ...j, value: 0.5 }]);
      expect(await s.listJudgments('run-1')).toEqual([{ ...j, value: 0.5 }]);
      const bytes = new Uint8Array([137, 80, 78, 71, 0, 255]);
      const ref = await s.putBlob(bytes, 'image/png');
      // sha256 of the six bytes, from python3 hashlib.
      expect(ref).toEqual({ hash: 'ffdb519b788f33bddc8647611c3a24cc5e1a9ef5780c1f6f828a637c309ad8f1', mediaType: 'image/png', size: 6 });
      expect((await s.putBlob(bytes, 'image/png')).hash).toBe(ref.hash);
      expect((await s.getBlob(ref.hash))?.bytes).toEqual(bytes);
      expect(await s.getBlob('nope')).toBeUndefined();
      await s.close();
    });

    it('deletes a run and only what belongs to it, refusing while a worker holds live claims unless forced', async () => {
      const s = await open();
      const other: RunRecord = { ...run, id: 'run-2' };
      await s.openRun(run);
      await s.openRun(other);
      const item2: VersionedItem = { hash: 'h2', item: { ...item.item, id: 'i2' } };
      await s.saveItems([item, item2]);
      await s.saveTrials([trial, { ...trial, id: 't2', index: 1, itemId: 'i2', itemHash: 'h2' }, { ...trial, runId: 'run-2' }]);
      const own = await s.putBlob(new Uint8Array([1, 2, 3]), 'image/png');
      const shared = await s.putBlob(new Uint8Array([4, 5, 6]), 'image/png');
      const inCall = await s.putBlob(new Uint8Array([7, 8, 9]), 'image/png');
      // As a deck record keeps them: plain JSON naming the blob by hash.
      const json = (b: BlobRef) => ({ hash: b.hash, mediaType: b.mediaType, size: b.size });
      await s.putArtifact('run-1', 'learning.deck', 'd', { slides: [{ png: json(own) }, { png: json(shared) }] });
      await s.putArtifact('run-1', 'web.blind-task', 'k', { rater: 'ann' });
      await s.putArtifact('run-2', 'learning.deck', 'd', { slides: [{ png: json(shared) }] });
      await s.saveCall(call({ requestHash: 'rq-img', request: { messages: [{ role: 'user', content: 'look', images: [{ blob: inCall }] }], params: {} } }));
      await s.saveCall(call({ runId: 'run-2', requestHash: 'rq-2' }));
      await s.saveTrialResult({ runId: 'run-1', trialId: 't1', status: 'done', scores: [{ runId: 'run-1', trialId: 't1', scorer: { name: 'exact', version: '1', args: {} }, value: 1 }] });
      await s.saveJudgments([{
        specVersion: 'paideia.judgment.v1', runId: 'run-1', trialId: 'j1', targetTrialId: 't1', rater: { alias: 'a', spec: 'openai:x' },
        promptVariant: 'v1', repeat: 0, fields: {}, value: 1, callSeq: null, producer: { name: 'p', version: '1', args: {} },
      }]);
      expect(await s.reserveBudget('run-1', { id: 'r1', workerId: 'w', amountUsd: 0.001 }, 1)).toBe(true);
      const worker = { workerId: 'w', pid: 9, host: 'h' };
      expect(await s.claimTrials('run-1', worker, ['t2'], Date.now() + 60_000)).toEqual(['t2']);

      await expect(s.deleteRun('run-1')).rejects.toMatchObject({ name: 'RunInUseError', message: expect.stringMatching(/run run-1 is in use: 1 trial\(s\) held by worker w \(pid 9 on h\)/) });
      expect((await s.getRun('run-1'))?.id).toBe('run-1');
      expect(await s.listTrials('run-1')).toHaveLength(2);
      // An expired lease is no longer live: the run can go without force.
      await s.renewClaims('run-1', 'w', Date.now() - 1);
      expect(await s.deleteRun('run-1')).toEqual({
        runId: 'run-1', trials: 2, calls: 1, scores: 1, judgments: 1, artifacts: 2, claims: 1, reservations: 1, items: 1, blobs: 2,
      });
      expect(await s.getRun('run-1')).toBeUndefined();
      expect((await s.listRuns()).map(r => r.id)).toEqual(['run-2']);
      for (const left of [await s.listTrials('run-1'), await s.listCalls('run-1'), await s.listScores('run-1'), await s.listJudgments('run-1'),
        await s.listArtifactKinds('run-1'), await s.listRunItems('run-1'), await s.listClaimHolders('run-1')]) expect(left).toEqual([]);
      expect([await s.spentUsd('run-1'), await s.reservedUsd('run-1')]).toEqual([0, 0]);
      expect(await s.findCachedResult('rq-img')).toBeUndefined();
      expect(await s.getBlob(own.hash)).toBeUndefined();
      expect(await s.getBlob(inCall.hash)).toBeUndefined();
      // What the other run names stays: its shared blob and item, trials and calls.
      expect((await s.getBlob(shared.hash))?.bytes).toEqual(new Uint8Array([4, 5, 6]));
      expect(await s.listRunItems('run-2')).toEqual([item]);
      expect((await s.listTrials('run-2')).map(t => t.id)).toEqual(['t1']);
      expect((await s.listCalls('run-2')).map(c => c.requestHash)).toEqual(['rq-2']);
      expect(await s.deleteRun('run-1')).toBeUndefined();

      // Forced: live claims go with the run, and the worker's fenced writes are refused from then on.
      expect(await s.claimTrials('run-2', worker, ['t1'], Date.now() + 60_000)).toEqual(['t1']);
      await expect(s.deleteRun('run-2')).rejects.toThrow(/in use/);
      expect((await s.deleteRun('run-2', { force: true }))?.claims).toBe(1);
      await expect(s.saveCall(call({ runId: 'run-2' }), { workerId: 'w' })).rejects.toThrow(/no longer holds/);
      expect(await s.listRuns()).toEqual([]);
      expect(await s.getBlob(shared.hash)).toBeUndefined();
      await s.close();
    });

    it('keeps shared rate limits as token buckets: full at first, never granting twice, refilled and given back', async () => {
      const s = await open();
      // 0.001 permits a second: no refill to speak of within the test.
      const slow = { key: 'requests openai:m', capacity: 10, perSecond: 0.001 };
      expect(await s.takePermits(slow, 4, 1)).toEqual({ granted: 4, waitMs: 0 });
      // Twenty workers asking at once share the six left, and no more.
      const asks = await Promise.all(Array.from({ length: 20 }, () => s.takePermits(slow, 1, 1)));
      expect(asks.reduce((a, g) => a + g.granted, 0)).toBe(6);
      const refused = asks.find(g => g.granted === 0)!;
      // One permit at 0.001 a second: about 1,000 s away (less what trickled in meanwhile).
      expect(refused.waitMs).toBeGreaterThan(990_000);
      expect(refused.waitMs).toBeLessThanOrEqual(1_000_000);
      // Given back: up to the capacity, never beyond.
      await s.returnPermits(slow, 3);
      expect(await s.takePermits(slow, 10, 3)).toEqual({ granted: 3, waitMs: 0 });
      await s.returnPermits(slow, 50);
      expect((await s.takePermits(slow, 50, 1)).granted).toBe(10);
      // Below `atLeast` nothing is granted, even when some permits are there; a debt delays the next take.
      const tokens = { key: 'tokens openai:m', capacity: 100, perSecond: 1000 };
      expect((await s.takePermits(tokens, 100, 100)).granted).toBe(100);
      await s.returnPermits(tokens, -400);
      const inDebt = await s.takePermits(tokens, 50, 50);
      expect(inDebt.granted).toBe(0);
      expect(inDebt.waitMs).toBeGreaterThan(300);
      expect(inDebt.waitMs).toBeLessThanOrEqual(450);
      // Refilled at 1,000 a second: half a second later a full bucket again.
      await new Promise(resolve => setTimeout(resolve, 600));
      expect(await s.takePermits(tokens, 100, 100)).toEqual({ granted: 100, waitMs: 0 });
      await s.close();
    });

    it('shares a cap on calls in flight: slots held per holder, given back, and freed when a lease runs out', async () => {
      const s = await open();
      const cap = (holder: string, delta: number, ttlMs = 60_000) => s.holdSlots('in-flight openai:m', 5, holder, delta, ttlMs);
      expect([await cap('a', 3), await cap('b', 4), await cap('b', 1)]).toEqual([3, 2, 0]);
      expect([await cap('a', -2), await cap('b', 3), await cap('a', -5), await cap('b', 0)]).toEqual([-2, 2, -1, 0]);
      // b holds 4: one is free; a holder that dies (its lease runs out) gives its slot back.
      expect(await cap('dead', 1, 300)).toBe(1);
      expect(await cap('c', 1)).toBe(0);
      await new Promise(resolve => setTimeout(resolve, 400));
      expect(await cap('c', 1)).toBe(1);
      // Twenty holders asking at once share the seven slots of another cap, and no more.
      const asks = await Promise.all(Array.from({ length: 20 }, (_, i) => s.holdSlots('in-flight other', 7, `w${i}`, 1, 60_000)));
      expect(asks.reduce((x, y) => x + y, 0)).toBe(7);
      await s.close();
    });

    it('upserts artifacts by run, kind and key', async () => {
      const s = await open();
      await s.putArtifact('run-1', 'dialogue', 'b', { turns: 1 });
      await s.putArtifact('run-1', 'dialogue', 'a', [1, 2]);
      await s.putArtifact('run-1', 'dialogue', 'b', { turns: 2 });
      expect(await s.listArtifacts('run-1', 'dialogue')).toEqual([{ key: 'a', value: [1, 2] }, { key: 'b', value: { turns: 2 } }]);
      expect(await s.listArtifacts('run-1', 'other')).toEqual([]);
      await s.putArtifact('run-1', 'config', 'c', null);
      // A trial's outcome carries artefacts and judgments too, written with its status.
      const j = {
        specVersion: 'paideia.judgment.v1' as const, runId: 'run-1', trialId: 'j9', targetTrialId: 't1', rater: { alias: 'a', spec: 'openai:x' },
        promptVariant: 'v1', repeat: 0, fields: {}, value: null, reason: 'no score', callSeq: null, producer: { name: 'p', version: '2', args: {} },
      };
      await s.saveTrialResult({ runId: 'run-1', trialId: 'j9', status: 'failed', judgments: [j], artifacts: [{ kind: 'dialogue', key: 'c', value: 'ç' }] });
      expect((await s.listArtifacts('run-1', 'dialogue')).map(a => a.value)).toEqual([[1, 2], { turns: 2 }, 'ç']);
      expect(await s.listJudgments('run-1')).toEqual([j]);
      expect(await s.listArtifactKinds('run-1')).toEqual(['config', 'dialogue']);
      expect(await s.listArtifactKinds('run-2')).toEqual([]);
      await s.close();
    });

    // Streamed reads of large runs (reports): pages of trials with their calls and scores, pages of items.
    it('reads a run a page of trials at a time in plan order, with each of its calls and scores in exactly one page', async () => {
      const s = await open();
      await s.openRun(run);
      await s.openRun({ ...run, id: 'run-2' });
      // Plan order is by index, then id: t3 t1 t5 t2 t4 (t2 and t4 share an index, across a page's edge).
      const planned: Array<[string, number]> = [['t4', 3], ['t3', 0], ['t1', 1], ['t5', 2], ['t2', 3]];
      await s.saveTrials(planned.map(([id, index]) => ({ ...trial, id, index })));
      await s.saveTrials([{ ...trial, id: 't1', runId: 'run-2' }]);
      // Calls stored out of plan order, one of a trial id the run does not plan (t0), none of run-2 read.
      for (const [k, id] of ['t4', 't1', 't0', 't5', 't1', 't2'].entries()) {
        await s.saveCall(call({ trialId: id, step: k, costUsd: k / 10, ...(id === 't2' ? { status: 'error', result: undefined, error: { name: 'ProviderCallError', message: '503', statusCode: 503 } } : {}) }));
      }
      await s.saveCall(call({ runId: 'run-2', trialId: 't1' }));
      const scorer = { name: 'exact', version: '1', args: { k: 1 } };
      for (const id of ['t5', 't1', 't3', 't0']) await s.saveScores([{ runId: 'run-1', trialId: id, scorer, value: id === 't3' ? null : 1, reason: `r-${id}` }]);
      await s.saveScores([{ runId: 'run-1', trialId: 't1', scorer: { name: 'chrf', version: '1', args: {} }, value: 0.5 }]);
      const pages = [];
      for (let after: { index: number; id: string } | undefined; ;) {
        const page = await s.readTrialPage('run-1', { limit: 2, ...(after ? { after } : {}) });
        pages.push(page);
        if (page.trials.length < 2) break;
        after = { index: page.trials.at(-1)!.index, id: page.trials.at(-1)!.id };
      }
      expect(pages.map(p => p.trials.map(t => t.id))).toEqual([['t3', 't1'], ['t5', 't2'], ['t4']]);
      expect(pages[0]!.trials[1]).toEqual({ ...trial, id: 't1', index: 1 });
      // The first page also holds what the store has of trials it does not hold (t0).
      expect(pages.map(p => p.calls.map(c => [c.trialId, c.step]))).toEqual([[['t1', 1], ['t0', 2], ['t1', 4]], [['t5', 3], ['t2', 5]], [['t4', 0]]]);
      const [t1] = pages[0]!.calls;
      expect(t1).toEqual({ seq: t1!.seq, trialId: 't1', step: 1, status: 'ok', text: 'iarnróid', costUsd: 0.1 });
      expect(pages[1]!.calls.at(-1)).toEqual({ seq: pages[1]!.calls.at(-1)!.seq, trialId: 't2', step: 5, status: 'error', error: { name: 'ProviderCallError', message: '503', statusCode: 503 }, costUsd: 0.5 });
      for (const p of pages) expect(p.calls.map(c => c.seq)).toEqual([...p.calls.map(c => c.seq)].sort((a, b) => a - b));
      expect(pages.map(p => p.scores.map(x => [x.trialId, x.scorer.name, x.value]))).toEqual([
        [['t0', 'exact', 1], ['t3', 'exact', null], ['t1', 'chrf', 0.5], ['t1', 'exact', 1]], [['t5', 'exact', 1]], [],
      ]);
      expect(pages[0]!.scores[1]).toEqual({ runId: 'run-1', trialId: 't3', scorer, value: null, reason: 'r-t3' });
      expect(await s.readTrialPage('run-3', { limit: 2 })).toEqual({ trials: [], calls: [], scores: [] });
      // Without answers: the same page, every call without its text.
      const outline = await s.readTrialPage('run-1', { limit: 2, answers: false });
      expect(outline.trials).toEqual(pages[0]!.trials);
      expect(outline.scores).toEqual(pages[0]!.scores);
      expect(outline.calls).toEqual(pages[0]!.calls.map(({ text: _text, ...rest }) => rest));
      expect(pages[0]!.calls.some(c => c.text !== undefined)).toBe(true);

      const items = ['h3', 'h1', 'h2'].map(hash => ({ hash, item: { ...item.item, id: `i-${hash}` } }));
      await s.saveItems(items);
      await s.saveTrials(items.map((v, index) => ({ ...trial, id: `u-${v.hash}`, index: 10 + index, itemHash: v.hash })));
      const first = await s.listRunItemPage('run-1', { limit: 2 });
      const rest = await s.listRunItemPage('run-1', { afterHash: first.at(-1)!.hash, limit: 2 });
      expect([...first, ...rest].map(v => v.hash)).toEqual(['h1', 'h2', 'h3']);
      expect(rest[0]).toEqual(items[0]);
      expect(await s.listRunItemPage('run-2', { limit: 5 })).toEqual([items[1]]);
      const some = await s.listRunItemsOf('run-1', ['h3', 'h2', 'h9', 'h3']);
      expect(some.map(v => v.hash).sort()).toEqual(['h2', 'h3']);
      expect(some.find(v => v.hash === 'h3')).toEqual(items[0]);
      expect(await s.listRunItemsOf('run-2', ['h1', 'h2'])).toEqual([items[1]]);
      expect(await s.listRunItemsOf('run-1', [])).toEqual([]);
      await s.close();
    });
  });
}
