import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadShippedUnit, startStudyServer } from '../../learning/testing/study-server.js';
import { blobHashesOf } from '../../store/blob-refs.js';
import { openStore } from '../../store/index.js';
import { createDatabase, startTestCluster, type TestCluster } from '../../store/postgres/testing/cluster.js';
import { runCli } from '../testing/run-cli.js';

let cluster: TestCluster | undefined;
const started = async () => (cluster ??= await startTestCluster());
afterAll(() => cluster?.destroy());

/** Every blob a run's artefacts point at, as each store holds it: hash -> [media type, bytes as hex]. */
async function blobsOf(url: string, runId: string): Promise<Map<string, [string, string]>> {
  const s = await openStore(url, { mustExist: true, readOnly: true });
  try {
    const values = [];
    for (const kind of await s.listArtifactKinds(runId)) values.push(...(await s.listArtifacts(runId, kind)).map(a => a.value));
    const out = new Map<string, [string, string]>();
    for (const hash of blobHashesOf(values)) {
      const b = await s.getBlob(hash);
      out.set(hash, b ? [b.ref.mediaType, Buffer.from(b.bytes).toString('hex')] : ['missing', '']);
    }
    return out;
  } finally {
    await s.close();
  }
}

describe('paideia store copy', () => {
  it('moves a run SQLite -> PostgreSQL -> SQLite, and each store reports it the same', async () => {
    const pg = createDatabase(await started(), 'copy');
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

  it('without --run copies every run the target lacks and names those it holds already, leaving them as they are', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-copy-skip-'));
    const suite = join(process.cwd(), 'src', 'cli', '__fixtures__', 'mini-suite.jsonl');
    const make = async (model: string) => {
      const r = await runCli(['run', suite, '-m', model, '--repeats', '1', '--store', 'sqlite:a.db'], { cwd });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.trim();
    };
    const older = await make('baseline:gold');
    const held = await make('baseline:copy');
    const first = await runCli(['store', 'copy', 'sqlite:a.db', 'sqlite:b.db', '--run', held], { cwd });
    expect(first.code, first.stderr).toBe(0);
    const calls = (id: string) => {
      const db = new Database(join(cwd, 'b.db'), { readonly: true });
      try { return (db.prepare('SELECT COUNT(*) AS n FROM calls WHERE run_id = ?').get(id) as { n: number }).n; } finally { db.close(); }
    };
    const heldCalls = calls(held);
    // Before, the copy stopped at the run b.db holds (exit 2), whatever came after it uncopied.
    const all = await runCli(['store', 'copy', 'sqlite:a.db', 'sqlite:b.db'], { cwd });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trim().split('\n')).toEqual([older]);
    expect(all.stderr).toContain(`copied run ${older}: 5 trial(s), 5 call(s)`);
    expect(all.stderr).toContain(`skipped 1 run(s) sqlite:${join(cwd, 'b.db')} holds already (left as they are there): ${held}`);
    expect([calls(older), calls(held)]).toEqual([5, heldCalls]);
    // Named with --run, a run the target holds is still refused.
    const again = await runCli(['store', 'copy', 'sqlite:a.db', 'sqlite:b.db', '--run', held], { cwd });
    expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/holds run run-\w+ already/)]);
  }, 120_000);

  it('moves a learning run with its slide PNGs and deck HTML SQLite -> PostgreSQL -> SQLite: the same report, the same blobs', async () => {
    const pg = createDatabase(await started(), 'copy_learning');
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-copy-learning-'));
    const units = ['chickasaw-case-and-person'];
    const [a, b, c] = ['a', 'b', 'c'].map(n => `sqlite:${join(cwd, `${n}.db`)}`) as [string, string, string];
    const server = await startStudyServer(units.map(loadShippedUnit));
    try {
      const made = await runCli([
        'learning', 'run', '--units', units.join(','), '--generator', 'good=openai:gen-good', '--generator', 'poor=openai:gen-poor',
        '--learner', 'strong=openai:learner-strong', '--judge', 'ja=openai:judge-a', '--images', 'strong,ja', '--store', a,
      ], { cwd, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' } });
      expect(made.code, made.stderr).toBe(0);
      const runId = made.stdout.trim();
      const original = await blobsOf(a, runId);
      // Two decks (3 and 2 slides): five PNGs and two HTML files, at least.
      expect([...original.values()].filter(([type]) => type === 'image/png').length).toBeGreaterThanOrEqual(5);
      expect([...original.values()].some(([type]) => type === 'text/html')).toBe(true);
      const there = await runCli(['store', 'copy', a, pg, '--run', runId], { cwd });
      expect(there.code, there.stderr).toBe(0);
      expect(there.stderr).toContain(`${original.size} blob(s) to`);
      const back = await runCli(['store', 'copy', pg, b, '--run', runId], { cwd });
      expect(back.code, back.stderr).toBe(0);
      expect(await blobsOf(pg, runId)).toEqual(original);
      expect(await blobsOf(b, runId)).toEqual(original);
      const report = async (store: string) => {
        const r = await runCli(['learning', 'report', runId, '--store', store, '--format', 'json'], { cwd });
        expect(r.code, r.stderr).toBe(0);
        const { generatedAt: _when, ...data } = JSON.parse(r.stdout) as Record<string, unknown>;
        return data;
      };
      const first = await report(a);
      expect(await report(pg)).toEqual(first);
      expect(await report(b)).toEqual(first);
      // A blob whose bytes no longer match its hash is refused, not copied on.
      const [png] = [...original].find(([, [type]]) => type === 'image/png')!;
      const damaged = new Database(join(cwd, 'b.db'));
      damaged.prepare('UPDATE blobs SET bytes = ? WHERE hash = ?').run(Buffer.from('not a png'), png);
      damaged.close();
      const bad = await runCli(['store', 'copy', b, c, '--run', runId], { cwd });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain(`blob ${png}`);
      expect(bad.stderr).toContain(createHash('sha256').update('not a png').digest('hex'));
    } finally {
      await server.close();
    }
  }, 300_000);
});
