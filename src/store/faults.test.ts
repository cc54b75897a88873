import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreError, type RunRecord, type Store } from '../core/index.js';
import { faultOf, guardStore, storeError } from './faults.js';
import { openStore } from './index.js';

const run: RunRecord = {
  id: 'run-faults', kind: 'suite', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', status: 'running',
  config: { suites: ['s.jsonl'], itemHashes: ['h1'], models: [], repeats: 1, seed: 1, params: {} },
  prices: { source: 'built-in', date: '2026-01-01', models: {} }, paideiaVersion: '0.0.0',
};
const dbFile = () => join(mkdtempSync(join(tmpdir(), 'paideia-faults-')), 'p.db');

async function storeErrorOf(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected a StoreError');
}

/** A store with rows in many pages, closed. */
async function filledStore(file: string): Promise<void> {
  const store = await openStore(`sqlite:${file}`);
  await store.openRun(run);
  for (let i = 0; i < 200; i++) await store.putArtifact(run.id, 'blob', `k${i}`, 'x'.repeat(2000));
  await store.close();
}

describe('store faults', () => {
  it('refuses a file that is not a database as damaged, naming what to do', async () => {
    const file = dbFile();
    writeFileSync(file, 'this is not a database '.repeat(400));
    const e = await storeErrorOf(openStore(`sqlite:${file}`));
    expect(e.fault).toBe('corrupt');
    expect(e.message).toMatch(/is damaged .*SQLITE_NOTADB.*Restore it from a backup/);
  });

  it('refuses a database whose middle pages are damaged (quick_check), though it opens', async () => {
    const file = dbFile();
    await filledStore(file);
    const pageSize = 4096;
    expect(statSync(file).size).toBeGreaterThan(40 * pageSize);
    const fd = openSync(file, 'r+');
    for (let page = 20; page < 24; page++) writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, page * pageSize);
    closeSync(fd);
    const e = await storeErrorOf(openStore(`sqlite:${file}`));
    expect(e.fault).toBe('corrupt');
    expect(e.message).toMatch(/damaged/);
  });

  it('opens read-only for commands that only read, and a write through it is a read-only fault naming the run', async () => {
    const file = dbFile();
    await filledStore(file);
    const before = readFileSync(file);
    const store = await openStore(`sqlite:${file}`, { mustExist: true, readOnly: true });
    expect((await store.listRuns()).map(r => r.id)).toEqual([run.id]);
    const e = await storeErrorOf(store.setRunStatus(run.id, 'completed'));
    expect(e.fault).toBe('read-only');
    expect(e.runId).toBe(run.id);
    expect(e.message).toMatch(/cannot be written.*report, runs and scenario report only read/);
    await store.close();
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('turns a full disk (a real SQLITE_FULL) into one message that names the run being written', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v TEXT)');
    db.pragma('max_page_count = 3');
    const base = await openStore('sqlite::memory:');
    const store: Store = guardStore({ ...base, putArtifact: async () => { db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000)); } });
    await store.openRun(run);
    const e = await storeErrorOf(store.putArtifact(run.id, 'k', 'x', 1));
    expect(e.fault).toBe('full');
    expect(e.runId).toBe(run.id);
    expect(e.message).toMatch(/is full \(SQLITE_FULL.*Everything stored before this point is kept; free some space, then run the same command again to resume/);
    await base.close();
  });

  it('lets errors that are not faults of the file through unchanged', async () => {
    const base = await openStore('sqlite::memory:');
    const bug = new TypeError('a bug');
    const store = guardStore({ ...base, listRuns: async () => { throw bug; } });
    await expect(store.listRuns()).rejects.toBe(bug);
    await base.close();
  });
});

describe('store faults of a PostgreSQL store', () => {
  it('speak of its server, its user\'s privileges and a standby, never of a file', () => {
    const url = 'postgres://Ana@db.example:5432/paideia';
    const of = (code: string, message: string) => storeError(faultOf({ code })!, url, Object.assign(new Error(message), { code })).message;
    const gone = of('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:5432');
    expect(gone).toMatch(/PostgreSQL server of the store postgres:\/\/Ana@db\.example:5432\/paideia could not be reached .*start the server/);
    expect(of('42501', 'permission denied for table runs')).toContain('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "Ana";');
    expect(of('25006', 'cannot execute INSERT in a read-only transaction')).toMatch(/only allows reads .*primary server/);
    expect(of('53100', 'could not extend file')).toMatch(/out of disk space.*free space on the server/);
    for (const text of [gone, of('42501', 'x'), of('25006', 'x'), of('53100', 'x'), of('XX001', 'x')]) expect(text).not.toMatch(/file|sqlite/i);
  });
});
