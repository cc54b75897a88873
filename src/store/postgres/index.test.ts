import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../index.js';
import { checkout, createPool, withRetry } from './connect.js';
import { storeConformance } from '../store.case.js';
import { createDatabase, startTestCluster, type TestCluster } from './testing/cluster.js';

let cluster: Promise<TestCluster> | undefined;
const started = () => (cluster ??= startTestCluster());
afterAll(async () => (await cluster)?.destroy());
let databases = 0;
const freshDatabase = async () => createDatabase(await started(), `conformance_${++databases}`);

storeConformance('postgres', async () => openStore(await freshDatabase()));

describe('postgres store', () => {
  it('migrates once and reopens a database with its data, the password kept out of its url', async () => {
    const url = await freshDatabase();
    const a = await openStore(url.replace('paideia@', 'paideia:secret@'));
    expect(a.url).not.toMatch(/secret/);
    await a.putArtifact('r', 'k', 'x', 1);
    await a.close();
    const b = await openStore(url);
    expect(await b.listArtifacts('r', 'k')).toEqual([{ key: 'x', value: 1 }]);
    await b.close();
  });

  it('a connection the server cuts while it is checked out for a transaction fails its next query, retried, instead of ending the process', async () => {
    const pool = createPool(await freshDatabase(), { readOnly: false, max: 2 });
    try {
      const { client, release } = await checkout(pool);
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      // What a server restart does to each connection: FATAL 57P01, between two of its queries.
      // Unheard, the 'error' it raises would be an uncaught exception here, failing this test.
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      for (let i = 0; i < 100 && (await pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount; i++) await new Promise(r => setTimeout(r, 20));
      await new Promise(r => setTimeout(r, 100));
      await expect(client.query('SELECT 1')).rejects.toThrow(/terminat|connection/i);
      release(true);
      expect((await withRetry(() => pool.query<{ n: number }>('SELECT 2 AS n'), 5_000)).rows[0]!.n).toBe(2);
    } finally {
      await pool.end();
    }
  });

  it('says while it retries a server that stopped, and stops saying so once the server answers again', async () => {
    const c = await started();
    const store = await openStore(await freshDatabase());
    try {
      expect(store.unavailable?.()).toBeUndefined();
      c.stop();
      const read = store.listRuns();
      for (let i = 0; i < 100 && !store.unavailable?.(); i++) await new Promise(r => setTimeout(r, 50));
      expect(store.unavailable?.()).toMatch(new RegExp(`^the PostgreSQL server of the store postgres://paideia@127\\.0\\.0\\.1:${c.port}/conformance_\\d+ has not answered since \\S+ \\((57P01|ECONNREFUSED)\\); the store retries it for 120 s$`));
      c.start();
      expect(await read).toEqual([]);
      expect(store.unavailable?.()).toBeUndefined();
    } finally {
      await store.close();
    }
  }, 60_000);

  it('a user who may not use the tables another user made is told the GRANTs that fix it, and works once they ran', async () => {
    const url = await freshDatabase();
    const owner = await openStore(url);
    await owner.openRun({
      id: 'run-1', kind: 'suite', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', status: 'running',
      config: { suites: [], itemHashes: [], models: [], repeats: 1, seed: 1, params: {} }, prices: { source: 't', date: '2026-01-01', models: {} }, paideiaVersion: '0',
    });
    await owner.close();
    const pool = createPool(url, { readOnly: false, max: 1 });
    const n = databases;
    try {
      await pool.query(`CREATE ROLE worker_${n} LOGIN; CREATE ROLE reader_${n} LOGIN`);
      const as = (user: string) => url.replace('paideia@', `${user}_${n}@`);
      // A worker's store (it writes): refused at open, naming the grants on the tables (the schema
      // right to create them was the old advice, and ran did not help).
      const grants = new RegExp(`may not read or write Paideia's tables.*GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO worker_${n}; GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO worker_${n};`);
      await expect(openStore(as('worker'))).rejects.toThrow(grants);
      // A reading command's store: its read fails as a store fault naming the same grants, not a read-only file.
      const reader = await openStore(as('reader'), { readOnly: true });
      await expect(reader.listRuns()).rejects.toThrow(new RegExp(`refused reader_${n}.*GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO reader_${n};`));
      await reader.close();
      // The advice, run as the tables' owner, is all the worker needs.
      const advice = /as their owner run: (GRANT .*;)/.exec(await openStore(as('worker')).then(() => '', (e: Error) => e.message))![1]!;
      await pool.query(advice);
      const worker = await openStore(as('worker'));
      expect((await worker.listRuns()).map(r => r.id)).toEqual(['run-1']);
      await worker.saveCall({
        runId: 'run-1', trialId: 't', step: 0, requestHash: 'h', request: { messages: [], params: {} }, status: 'ok',
        result: { text: 'x', warnings: [] }, attempts: 1, latencyMs: 1, costUsd: 0, cached: false, createdAt: '2026-01-01T00:00:00.000Z',
      });
      expect(await worker.listCalls('run-1')).toHaveLength(1);
      await worker.close();
    } finally {
      await pool.end();
    }
  });

  it('says how to fix a bad URL, a server that is not there and a database that does not exist', async () => {
    await expect(openStore('postgres://')).rejects.toThrow(/--store.*names no host/);
    // Port 9 (discard) is not PostgreSQL on this machine.
    await expect(openStore('postgres://paideia@127.0.0.1:9/paideia')).rejects.toThrow(/cannot reach PostgreSQL at 127\.0\.0\.1:9.*start the server/);
    const c = await started();
    await expect(openStore(`postgres://paideia@127.0.0.1:${c.port}/missing_db`)).rejects.toThrow(/database "missing_db" does not exist.*createdb -h 127\.0\.0\.1 -p \d+ -U paideia missing_db/);
  });
});
