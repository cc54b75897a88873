import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError, type ChatModel, type Store } from '../../core/index.js';
import { builtInScorers } from '../../scoring/builtins.js';
import { runSuite } from '../../suites/run.js';
import { BUILT_IN_TESTS } from '../../suites/tests/index.js';
import { guardStore } from '../faults.js';
import { createSqliteStore } from './index.js';

/** 150 grammar items, so planning and calling each fill many pages. */
function itemsFile(dir: string): string {
  const lines = Array.from({ length: 150 }, (_, i) => JSON.stringify({
    id: `full-${i}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${i}`, pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' },
    accepted: [`focail${i}`], source: { dataset: 'test', key: String(i) }, licence: 'CC0-1.0', evidence: 'synthetic',
    visibility: 'private', contamination: 'private', human_checked: false, notes: 'n'.repeat(300),
  }));
  const file = join(dir, 'items.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
}

const gold: ChatModel & { calls: number } = {
  specVersion: 'paideia.chat-model.v1', provider: 'openai', modelId: 'm', isBaseline: false, calls: 0,
  async generate(request) {
    gold.calls++;
    return { text: `${request.hints?.gold ?? ''} ${'x'.repeat(400)}`, warnings: [], usage: { inputTokens: 20, outputTokens: 2 } };
  },
};

async function open(file: string, maxPages?: number, threadAfterWrites?: number): Promise<Store> {
  const store = guardStore(createSqliteStore(file, { ...(maxPages !== undefined ? { maxPages } : {}), ...(threadAfterWrites !== undefined ? { threadAfterWrites } : {}) }));
  await store.init();
  return store;
}

function run(store: Store, suite: string, onPlanned?: () => void, resumeRunId?: string) {
  return runSuite({
    ...(resumeRunId ? { resumeRunId } : {}),
    store, suites: [suite], models: [{ alias: 'm', provider: 'openai', model: 'm', spec: 'openai:m' }],
    repeats: 2, seed: 1, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), createModel: () => gold,
    prices: { source: 'test', date: '2026-01-01', models: {} }, useCache: false, concurrency: () => 4,
    onEvent: e => { if (e.type === 'planned') onPlanned?.(); },
  });
}

const pages = (file: string) => {
  const db = new Database(file, { readonly: true });
  try { return db.pragma('page_count', { simple: true }) as number; } finally { db.close(); }
};

/** Rows that only a half-written trial would leave: a trial done without its call, or scored while not done. */
function halfWritten(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT
      (SELECT COUNT(*) FROM trials t WHERE status = 'done' AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.run_id = t.run_id AND c.trial_id = t.id))
      + (SELECT COUNT(*) FROM scores s JOIN trials t ON t.run_id = s.run_id AND t.id = s.trial_id WHERE t.status IS NOT 'done') AS n`).get() as { n: number }).n;
  } finally { db.close(); }
}

const count = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try { return (db.prepare(sql).get() as { n: number }).n; } finally { db.close(); }
};

describe('a disk that fills up (SQLITE_FULL from a capped file)', () => {
  // Writes committed on the event loop, and by the commit thread a long run hands them to.
  it.each([['on the event loop', undefined], ['by the commit thread', 0]] as const)('mid-plan and mid-run, committed %s: a StoreError naming the run, nothing half-written, and a resume after space is freed completes without repeating a call', async (_, threadAfterWrites) => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-full-'));
    const suite = itemsFile(dir);
    // A reference run with room enough: how many pages planning takes, and the whole run.
    const reference = join(dir, 'ref.db');
    let planned = 0;
    const refStore = await open(reference);
    const ref = await run(refStore, suite, () => (planned = pages(reference)));
    await refStore.close();
    expect(ref.summary.done).toBe(300);
    const total = pages(reference);
    expect(total - planned).toBeGreaterThan(40);

    for (const [where, maxPages] of [['mid-plan', planned - 8], ['mid-run', Math.floor((planned + total) / 2)]] as const) {
      const file = join(dir, `${where}.db`);
      const full = await open(file, maxPages, threadAfterWrites);
      const error = await run(full, suite).then(() => undefined, (e: unknown) => e);
      // Every worker wound down before the error came back: no call is made after it.
      const callsAtError = gold.calls;
      await new Promise(resolve => setTimeout(resolve, 30));
      expect(gold.calls).toBe(callsAtError);
      await full.close().catch(() => undefined);
      expect(error, where).toBeInstanceOf(StoreError);
      expect((error as StoreError).fault).toBe('full');
      expect((error as StoreError).runId).toBe(ref.run.id);
      expect(halfWritten(file), where).toBe(0);
      // Trials are planned in one transaction: all of them or none.
      expect([0, 300], where).toContain(count(file, 'SELECT COUNT(*) AS n FROM trials'));
      const storedBefore = count(file, 'SELECT COUNT(*) AS n FROM calls');
      if (where === 'mid-run') expect(storedBefore).toBeGreaterThan(0);
      expect(storedBefore).toBeLessThan(300);

      // Space freed: the printed hint (--resume <id>) after a failed plan, the same command after a
      // failed run, each calls only what was not stored and ends complete.
      const callsBefore = gold.calls;
      const freed = await open(file, undefined, threadAfterWrites);
      const resumed = await run(freed, suite, undefined, where === 'mid-plan' ? ref.run.id : undefined);
      await freed.close();
      expect(resumed.run.id).toBe(ref.run.id);
      expect(resumed.summary, where).toMatchObject({ done: 300, failed: 0, pending: 0 });
      expect(count(file, 'SELECT COUNT(*) AS n FROM calls'), where).toBe(300);
      expect(count(file, 'SELECT COUNT(DISTINCT trial_id) AS n FROM calls')).toBe(300);
      expect(gold.calls - callsBefore, where).toBe(300 - storedBefore);
      expect(count(file, 'SELECT COUNT(DISTINCT trial_id) AS n FROM scores')).toBe(300);
    }
  });
});
