import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { ClaimLostError, type CallRecord, type RunRecord, type Trial } from '../../core/index.js';
import { TSX_LOADER } from '../../cli/testing/run-cli.js';
import { createSqliteStore } from './index.js';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'paideia-thread-')), 'p.db');
const run: RunRecord = {
  id: 'run-1', kind: 'suite', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', status: 'running',
  config: { suites: [], itemHashes: [], models: [], repeats: 1, seed: 1, params: {} },
  prices: { source: 'built-in', date: '2026-01-01', models: {} }, paideiaVersion: '0.0.0',
};
const trial = (id: string, index: number): Trial => ({
  id, runId: 'run-1', index, itemId: `i${index}`, itemHash: 'h', test: 'grammar_forms', modelAlias: 'm', modelSpec: 'openai:m', promptVersion: '1', repeat: 0, seed: 1,
});
const call = (trialId: string): CallRecord => ({
  runId: 'run-1', trialId, step: 0, requestHash: `rq-${trialId}`, request: { messages: [{ role: 'user', content: trialId }], params: {} },
  status: 'ok', result: { text: `a ${trialId}`, warnings: [] }, attempts: 1, latencyMs: 1, costUsd: 0.5, cached: false, createdAt: '2026-01-01T00:00:01.000Z',
});

describe('the commit thread', () => {
  it('takes over after the writes committed on the event loop, and every read sees every write before it', async () => {
    const store = createSqliteStore(dbFile(), { threadAfterWrites: 5 });
    await store.init();
    await store.openRun(run);
    const ids = Array.from({ length: 30 }, (_, i) => `t${i}`);
    await store.saveTrials(ids.map(trial));
    // Not awaited one by one: the first five commit here, the rest in the thread, in batches.
    const writes = ids.map(id => store.saveCall(call(id)));
    writes.push(...ids.map(id => store.saveTrialResult({ runId: 'run-1', trialId: id, status: 'done' })));
    // A read asked before any of them committed waits for all of them.
    expect(await store.spentUsd('run-1')).toBe(15);
    expect((await store.listCalls('run-1')).map(c => c.trialId)).toEqual(ids);
    expect((await store.listTrialStatuses('run-1')).size).toBe(30);
    await Promise.all(writes);
    expect((await store.findCachedResult('rq-t29'))?.text).toBe('a t29');
    await store.close();
  });

  it('a read brings forward the commit that waits out the gap between batches, instead of waiting for it', async () => {
    const store = createSqliteStore(dbFile(), { threadAfterWrites: 0 });
    await store.init();
    await store.openRun(run);
    await store.saveTrials([trial('t1', 0), trial('t2', 1), trial('t3', 2)]);
    // The thread started; the second batch is sent as the first ends, and ends at once.
    await store.saveCall(call('t1'));
    await store.saveCall(call('t2'));
    // The next write, right after a commit, would wait out the gap on a timer that never fires here.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const written = store.saveCall(call('t3'));
      expect((await store.listCalls('run-1')).map(c => c.trialId)).toEqual(['t1', 't2', 't3']);
      await written;
    } finally {
      vi.useRealTimers();
    }
    await store.close();
  });

  it('fails only the write whose claim went to another worker, not the others in its batch', async () => {
    const store = createSqliteStore(dbFile(), { threadAfterWrites: 0 });
    await store.init();
    await store.openRun(run);
    await store.saveTrials([trial('t1', 0), trial('t2', 1)]);
    const later = Date.now() + 60_000;
    await store.claimTrials('run-1', { workerId: 'a', pid: 1, host: 'h' }, ['t1'], later);
    await store.claimTrials('run-1', { workerId: 'b', pid: 2, host: 'h' }, ['t2'], later);
    const [mine, theirs] = await Promise.allSettled([store.saveCall(call('t1'), { workerId: 'a' }), store.saveCall(call('t2'), { workerId: 'a' })]);
    expect(mine.status).toBe('fulfilled');
    expect(theirs.status === 'rejected' && theirs.reason).toBeInstanceOf(ClaimLostError);
    expect((await store.listCalls('run-1')).map(c => c.trialId)).toEqual(['t1']);
    await store.close();
  });

  it('loses no write it said was stored when the process is killed with -9', async () => {
    const file = dbFile();
    const child = spawn(process.execPath, ['--import', TSX_LOADER, fileURLToPath(new URL('./testing/write-until-killed.ts', import.meta.url)), file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    let errors = '';
    let lines = 0;
    const exited = new Promise<NodeJS.Signals | null>(resolve => child.once('exit', (_, signal) => resolve(signal)));
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    // Killed as soon as the second thousand is reported: a write said stored before its batch
    // committed would be missing then, as the thread is still writing it.
    child.stdout.on('data', (d: Buffer) => {
      printed += d.toString();
      lines += d.toString().split('\n').length - 1;
      if (lines > 1000) child.kill('SIGKILL');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const signal = await exited;
    clearTimeout(timer);
    expect(signal, errors).toBe('SIGKILL');
    // Only whole lines: the last one may have been cut by the kill.
    const reported = printed.split('\n').slice(0, -1);
    expect(reported.length, errors).toBeGreaterThan(1000);
    const db = new Database(file, { readonly: true });
    const stored = new Set((db.prepare('SELECT trial_id FROM calls').all() as Array<{ trial_id: string }>).map(r => r.trial_id));
    db.close();
    expect(reported.filter(id => !stored.has(id))).toEqual([]);
  });
});
