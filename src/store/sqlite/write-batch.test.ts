import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SQLITE_FAULT_CODES } from '../faults.js';
import { createSqliteStore } from './index.js';
import { BATCH_SQL } from './statements.js';
import { writeBatch, type WriteOp } from './write-batch.js';

/** A migrated store file, opened bare. */
async function bareDatabase(): Promise<Database.Database> {
  const file = join(mkdtempSync(join(tmpdir(), 'paideia-batch-')), 'p.db');
  const store = createSqliteStore(file);
  await store.init();
  await store.close();
  return new Database(file);
}

const bigCall = (trialId: string): WriteOp => ({
  rows: [['insertCall', ['run-1', trialId, 'run-1', trialId, 0, `rq-${trialId}`, JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(200_000) }] }), 'ok', '{"text":"a"}', null, 1, 1, 0, 0, '2026-01-01T00:00:00.000Z', null, null]]],
});
// Deletes nothing: alone it needs no new page, so it would commit on a full disk.
const release: WriteOp = { rows: [['release', ['run-1', 'no-such-reservation']]] };

describe('writeBatch', () => {
  it('a batch that fails for a fault of the file keeps the writes before the first that fails alone, and fails the rest untried', async () => {
    const db = await bareDatabase();
    try {
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
      const outcome = writeBatch(db, { sql: BATCH_SQL, faultCodes: SQLITE_FAULT_CODES })([release, bigCall('t1'), release]);
      expect(outcome.failures?.map(f => f?.code)).toEqual([undefined, 'SQLITE_FULL', 'SQLITE_FULL']);
    } finally {
      db.close();
    }
  });

  it('a batch that fails for one bad write tries each alone: only that one fails', async () => {
    const db = await bareDatabase();
    try {
      const bad: WriteOp = { rows: [['insertScore', ['run-1', 't1', 'run-1', 't1', 'exact', '1', '{}', 1, null, null, 'one too many']]] };
      const outcome = writeBatch(db, { sql: BATCH_SQL, faultCodes: SQLITE_FAULT_CODES })([bigCall('t1'), bad, release]);
      expect(outcome.failures?.map(f => f !== undefined)).toEqual([false, true, false]);
      expect(outcome.calls?.[1]).toBe(outcome.calls?.[0]);
    } finally {
      db.close();
    }
  });
});
