import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, startTestCluster, type TestCluster } from '../../store/postgres/testing/cluster.js';
import { runCli } from '../testing/run-cli.js';

let cluster: TestCluster | undefined;
afterAll(() => cluster?.destroy());

describe('paideia store copy', () => {
  it('moves a run SQLite -> PostgreSQL -> SQLite, and each store reports it the same', async () => {
    cluster = await startTestCluster();
    const pg = createDatabase(cluster, 'copy');
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-copy-'));
    const suite = join(process.cwd(), 'data', 'samples', 'irish');
    const made = await runCli(['run', suite, '-m', 'baseline:gold', '-m', 'baseline:copy', '--repeats', '1', '--store', 'sqlite:a.db'], { cwd });
    expect(made.code, made.stderr).toBe(0);
    const runId = made.stdout.trim();
    const there = await runCli(['store', 'copy', 'sqlite:a.db', pg], { cwd });
    expect(there.code, there.stderr).toBe(0);
    expect(there.stdout.trim()).toBe(runId);
    expect(there.stderr).toMatch(/copied run run-\w+: \d+ trial\(s\), \d+ call\(s\)/);
    const back = await runCli(['store', 'copy', pg, 'sqlite:b.db', '--run', runId], { cwd });
    expect(back.code, back.stderr).toBe(0);
    const report = async (store: string) => {
      const r = await runCli(['report', runId, '--store', store, '--format', 'json', '--out', '-'], { cwd });
      expect(r.code, r.stderr).toBe(0);
      // The moment the report was made differs; everything read from the store must not.
      const { generatedAt: _when, ...data } = JSON.parse(r.stdout) as Record<string, unknown>;
      return data;
    };
    const [a, p, b] = [await report('sqlite:a.db'), await report(pg), await report('sqlite:b.db')];
    expect(p).toEqual(a);
    expect(b).toEqual(a);
    const rescored = await runCli(['rescore', runId, '--store', pg], { cwd });
    expect([rescored.code, rescored.stdout], rescored.stderr).toEqual([0, expect.stringMatching(/^rescored \d+ trial\(s\) of run-/)]);
    expect(await report(pg)).toEqual(a);
    // A second copy into a store that holds the run is refused: two histories never mix.
    const again = await runCli(['store', 'copy', 'sqlite:a.db', pg, '--run', runId], { cwd });
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/holds run run-\w+ already/)]);
  }, 240_000);
});
