import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallRecord, Store } from '../../core/index.js';
import Database from 'better-sqlite3';
import { createCacheFilter } from './cache-filter.js';
import { createSqliteStore } from './index.js';

const call = (runId: string, i: number, status: 'ok' | 'error' = 'ok'): CallRecord => ({
  runId, trialId: `t${i}`, step: 0, requestHash: `rq-${i}`, request: { messages: [{ role: 'user', content: `q${i}` }], params: {} }, status,
  ...(status === 'ok' ? { result: { text: `a${i}`, warnings: [] } } : { error: { name: 'ProviderCallError', message: '500' } }),
  attempts: 1, latencyMs: 1, costUsd: 0, cached: false, createdAt: '2026-12-01T00:00:00.000Z',
});

async function open(path: string): Promise<Store> {
  const s = createSqliteStore(path);
  await s.init();
  return s;
}

const later = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe('SQLite cache lookups with the filter of stored answers', () => {
  it('finds every answer stored here, queued or committed, through growth of the filter, and never an error', async () => {
    const s = await open(join(mkdtempSync(join(tmpdir(), 'paideia-filter-')), 'p.db'));
    expect(await s.findCachedResult('rq-0')).toBeUndefined();
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < 3000; i++) {
      writes.push(s.saveCall(call('run-1', i, i % 7 === 3 ? 'error' : 'ok')));
      // Queued answers are found before their commit; lookups in between make the filter sync and grow.
      if (i % 500 === 0) expect((await s.findCachedResult(`rq-${i}`))?.text).toBe(i % 7 === 3 ? undefined : `a${i}`);
    }
    await Promise.all(writes);
    for (let i = 0; i < 3000; i++) {
      const found = await s.findCachedResult(`rq-${i}`);
      if (i % 7 === 3) expect(found).toBeUndefined();
      else expect(found?.text).toBe(`a${i}`);
    }
    expect(await s.findCachedResult('rq-never')).toBeUndefined();
    await s.close();
  });

  it('sees answers another connection (another process) stored, and those stored before it opened', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'paideia-filter-')), 'p.db');
    const a = await open(path);
    await a.saveCall(call('run-a', 1));
    const b = await open(path);
    expect((await b.findCachedResult('rq-1'))?.text).toBe('a1');
    expect(await b.findCachedResult('rq-2')).toBeUndefined();
    for (let i = 2; i < 200; i++) await a.saveCall(call('run-a', i));
    await later(20);
    for (let i = 2; i < 200; i++) expect((await b.findCachedResult(`rq-${i}`))?.text).toBe(`a${i}`);
    // And within a commit of its own, without waiting.
    await a.saveCall(call('run-a', 500));
    await b.saveCall(call('run-b', 501));
    expect((await b.findCachedResult('rq-500'))?.text).toBe('a500');
    await a.close();
    await b.close();
  });
});

describe('createCacheFilter', () => {
  it('holds every stored answer and rules out nearly every other hash, so those lookups skip the read', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'paideia-filter-')), 'p.db');
    const s = await open(path);
    await Promise.all(Array.from({ length: 2000 }, (_, i) => s.saveCall(call('run-1', i))));
    await s.close();
    const db = new Database(path);
    const filter = createCacheFilter(() => db, () => ['rq-queued']);
    filter.sync();
    for (let i = 0; i < 2000; i++) expect(filter.mayHold(`rq-${i}`)).toBe(true);
    expect(filter.mayHold('rq-queued')).toBe(true);
    let maybe = 0;
    for (let i = 0; i < 20_000; i++) if (filter.mayHold(`other-${i}`)) maybe++;
    expect(maybe).toBeLessThan(20_000 * 0.03);
    db.close();
  });
});
