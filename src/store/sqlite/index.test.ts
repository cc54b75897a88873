import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VersionedItem } from '../../core/index.js';
import { guardStore, openStore } from '../index.js';
import { storeConformance } from '../store.case.js';
import { createSqliteStore } from './index.js';
import { MIGRATIONS } from './schema.js';

storeConformance('sqlite', async () => openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-')), 'p.db')}`));
// Every write through the commit thread, which a long run hands its batches to.
storeConformance('sqlite, commit thread from the first write', async () => {
  const store = guardStore(createSqliteStore(join(mkdtempSync(join(tmpdir(), 'paideia-')), 'p.db'), { threadAfterWrites: 0 }));
  await store.init();
  return store;
});

describe('sqlite store', () => {
  it('reopens a file with its data and does not re-run migrations', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paideia-')), 'nested', 'p.db');
    const a = await openStore(`sqlite:${file}`);
    await a.putArtifact('r', 'k', 'x', 1);
    await a.close();
    const b = await openStore(`sqlite:${file}`);
    expect(await b.listArtifacts('r', 'k')).toEqual([{ key: 'x', value: 1 }]);
    await b.close();
  });
  it('reads a store an older Paideia wrote (schema 2) when opened read-only, migrating a copy in memory and leaving the file alone', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paideia-')), 'old.db');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec(MIGRATIONS[0]! + MIGRATIONS[1]!);
    old.pragma('user_version = 2');
    old.prepare(`INSERT INTO runs VALUES ('run-old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'completed', ?, '{"source":"built-in","date":"2026-01-01","models":{}}', '0.0.1', NULL)`)
      .run(JSON.stringify({ suites: ['s.jsonl'], itemHashes: ['h1'], models: [], repeats: 1, seed: 1, params: {} }));
    old.prepare(`INSERT INTO calls (run_id, trial_id, step, request_hash, request, status, result, attempts, latency_ms, cost_usd, cached, created_at)
      VALUES ('run-old', 't1', 0, 'rh', '{"messages":[],"params":{}}', 'ok', '{"text":"hi","warnings":[]}', 1, 5, 0.25, 0, '2026-01-01T00:00:00Z')`).run();
    old.close();
    chmodSync(file, 0o444);
    const before = readFileSync(file);
    const store = await openStore(`sqlite:${file}`, { mustExist: true, readOnly: true });
    expect((await store.listRuns()).map(r => [r.id, r.kind, r.status])).toEqual([['run-old', 'suite', 'completed']]);
    expect((await store.listCalls('run-old')).map(c => c.result?.text)).toEqual(['hi']);
    expect(await store.spentUsd('run-old')).toBe(0.25);
    await expect(store.setRunStatus('run-old', 'stopped')).rejects.toMatchObject({ fault: 'read-only' });
    await store.close();
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(new Database(file, { readonly: true }).pragma('user_version', { simple: true })).toBe(2);
  });
  it('moves the calls and scores of a store written before migration 8 to keys by plan index, those of a trial it does not hold included', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paideia-')), 'v7.db');
    const old = new Database(file);
    old.exec(MIGRATIONS.slice(0, 7).join('\n'));
    old.pragma('user_version = 7');
    const trial = old.prepare(`INSERT INTO trials (run_id, id, idx, item_id, item_hash, test, model_alias, model_spec, prompt_version, repeat, seed)
      VALUES ('r', ?, ?, 'i', 'h', 'grammar_forms', 'm', 'baseline:gold', '1', 0, 1)`);
    trial.run('tb', 0);
    trial.run('ta', 1);
    const call = old.prepare(`INSERT INTO calls (run_id, trial_id, step, request_hash, request, status, result, attempts, latency_ms, cost_usd, cached, created_at)
      VALUES ('r', ?, 0, ?, '{"messages":[],"params":{}}', 'ok', ?, 1, 5, 0, 0, '2026-01-01T00:00:00Z')`);
    for (const [id, text] of [['ta', 'a'], ['tb', 'b'], ['gone', 'g'], ['ta', 'a2']]) call.run(id, `rh-${text}`, JSON.stringify({ text, warnings: [] }));
    const score = old.prepare(`INSERT INTO scores (run_id, trial_id, scorer_name, scorer_version, scorer_args, value) VALUES ('r', ?, ?, '1', '{}', ?)`);
    score.run('ta', 'exact', 1);
    score.run('ta', 'chrf', 0.5);
    score.run('gone', 'exact', 0);
    old.close();

    const store = await openStore(`sqlite:${file}`);
    const texts = (calls: Array<{ result?: { text: string } | undefined }>) => calls.map(c => c.result?.text);
    expect(texts(await store.listCalls('r', { trialIds: ['ta'] }))).toEqual(['a', 'a2']);
    expect(texts(await store.listCalls('r', { trialIds: ['gone', 'tb'] }))).toEqual(['b', 'g']);
    const scores = async (only?: string[]) => (await store.listScores('r', only ? { trialIds: only } : {})).map(s => [s.trialId, s.scorer.name, s.value]);
    expect(await scores()).toEqual([['gone', 'exact', 0], ['ta', 'chrf', 0.5], ['ta', 'exact', 1]]);
    expect(await scores(['ta', 'gone', 'ta'])).toEqual([['gone', 'exact', 0], ['ta', 'chrf', 0.5], ['ta', 'exact', 1]]);
    // A score saved again for a migrated trial replaces its row, as the old key did.
    await store.saveScores([{ runId: 'r', trialId: 'ta', scorer: { name: 'exact', version: '1', args: {} }, value: 0 }]);
    await store.saveScores([{ runId: 'r', trialId: 'gone', scorer: { name: 'exact', version: '1', args: {} }, value: 1 }]);
    expect(await scores()).toEqual([['gone', 'exact', 1], ['ta', 'chrf', 0.5], ['ta', 'exact', 0]]);
    const page = await store.readTrialPage('r', { limit: 10 });
    // In plan order: tb is trial 0, ta trial 1.
    expect(page.trials.map(t => t.id)).toEqual(['tb', 'ta']);
    expect(page.calls.map(c => [c.trialId, c.text])).toEqual([['ta', 'a'], ['tb', 'b'], ['gone', 'g'], ['ta', 'a2']]);
    expect(page.scores.map(s => [s.trialId, s.scorer.name])).toEqual([['gone', 'exact'], ['ta', 'chrf'], ['ta', 'exact']]);
    // A new call is keyed by its trial's plan index.
    await store.saveCall({
      runId: 'r', trialId: 'tb', step: 1, requestHash: 'rh-new', request: { messages: [], params: {} }, status: 'ok',
      result: { text: 'b2', warnings: [] }, attempts: 1, latencyMs: 1, costUsd: 0, cached: false, createdAt: '2026-01-02T00:00:00Z',
    });
    await store.close();
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT trial_id, trial_idx FROM calls ORDER BY seq').raw().all()).toEqual([['ta', 1], ['tb', 0], ['gone', -1], ['ta', 1], ['tb', 0]]);
    after.close();
  });
  it('reads a run\'s items without committing the writes queued before, which still commit and stay readable', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paideia-')), 'p.db');
    const store = await openStore(`sqlite:${file}`);
    const item = { hash: 'h1', item: { id: 'i1', test: 'grammar_forms', input: { lemma: 'x' } } } as unknown as VersionedItem;
    await store.saveItems([item]);
    await store.saveTrials([{
      id: 't1', runId: 'r', index: 0, itemId: 'i1', itemHash: 'h1', test: 'grammar_forms', modelAlias: 'm',
      modelSpec: 'baseline:gold', promptVersion: '1', repeat: 0, seed: 7,
    }]);
    const queued = store.putArtifact('r', 'k', 'x', 1);
    const other = new Database(file, { readonly: true });
    const committed = () => (other.prepare('SELECT COUNT(*) AS n FROM artifacts').get() as { n: number }).n;
    expect((await store.listRunItemsOf('r', ['h1'])).map(v => v.hash)).toEqual(['h1']);
    expect((await store.listRunItemPage('r', { limit: 10 })).map(v => v.hash)).toEqual(['h1']);
    // The queued write waits for its group commit: an item read does not cut it short.
    expect(committed()).toBe(0);
    await queued;
    expect(committed()).toBe(1);
    expect(await store.listArtifacts('r', 'k')).toEqual([{ key: 'x', value: 1 }]);
    other.close();
    await store.close();
  });
  it('rejects an unknown store URL naming the flag', async () => {
    await expect(openStore('mysql://x')).rejects.toThrow(/--store.*unsupported store URL/);
  });
});
