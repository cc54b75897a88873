import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../index.js';
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

  it('says how to fix a bad URL, a server that is not there and a database that does not exist', async () => {
    await expect(openStore('postgres://')).rejects.toThrow(/--store.*names no host/);
    // Port 9 (discard) is not PostgreSQL on this machine.
    await expect(openStore('postgres://paideia@127.0.0.1:9/paideia')).rejects.toThrow(/cannot reach PostgreSQL at 127\.0\.0\.1:9.*start the server/);
    const c = await started();
    await expect(openStore(`postgres://paideia@127.0.0.1:${c.port}/missing_db`)).rejects.toThrow(/database "missing_db" does not exist.*createdb -h 127\.0\.0\.1 -p \d+ -U paideia missing_db/);
  });
});
