import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../core/index.js';
import { runCli } from '../cli/testing/run-cli.js';
import { openAIChatBody, startOpenAICompatibleServer } from '../providers/testing/fake-servers.js';
import { copyRun } from '../store/copy.js';
import { openStore } from '../store/index.js';
import { createDatabase, startTestCluster, type TestCluster } from '../store/postgres/testing/cluster.js';
import { startApiServer } from './testing/api-server.js';
import type { RunningServer } from './serve.js';

let cluster: TestCluster | undefined;
const open: Array<Store | RunningServer> = [];
afterAll(async () => {
  for (const x of open.reverse()) await x.close();
  cluster?.destroy();
});

describe('the web app over a PostgreSQL store', () => {
  it('answers the runs list, a run\'s results, its trials and a trial with its raw calls as it does over SQLite, for the same copied run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-web-pg-'));
    // A stand-in page: the server checks that its front end exists; this test speaks to the API.
    // A model that answers some items right and some wrong, with a raw body worth comparing.
    const model = await startOpenAICompatibleServer(req => {
      const n = Number(JSON.stringify(req.body).length % 3);
      return { body: openAIChatBody({ text: n === 0 ? 'iarnróid' : `freagra ${n}`, usage: { prompt_tokens: 40, completion_tokens: 5 } }) };
    });
    try {
      const sqlite = `sqlite:${join(dir, 'web.db')}`;
      const made = await runCli([
        'run', join(process.cwd(), 'data', 'samples', 'irish'), '-m', 'openai:m', '-m', 'baseline:gold', '--repeats', '2',
        '--base-url', model.baseURL, '--store', sqlite,
      ], { cwd: dir, env: { OPENAI_API_KEY: 'k' } });
      expect([0, 1]).toContain(made.code);
      const runId = made.stdout.trim();
      cluster = await startTestCluster();
      const pgUrl = createDatabase(cluster, 'web');
      const [a, p] = [await openStore(sqlite, { readOnly: true }), await openStore(pgUrl)];
      open.push(a, p);
      await copyRun(a, p, runId);
      const serve = async (store: Store) => {
        const s = await startApiServer(store, dir);
        open.push(s);
        return (path: string) => fetch(`${s.url}/api${path}`).then(async r => ({ status: r.status, body: await r.json() as unknown }));
      };
      const [onSqlite, onPg] = [await serve(a), await serve(p)];
      // A copy numbers its calls anew in the target (store copy says so); everything else must match.
      const withoutSeq = (v: unknown): unknown => Array.isArray(v) ? v.map(withoutSeq)
        : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'seq').map(([k, x]) => [k, withoutSeq(x)])) : v;
      const same = async (path: string) => {
        const [x, y] = [await onSqlite(path), await onPg(path)];
        expect(x.status, path).toBe(200);
        expect(withoutSeq(y), path).toEqual(withoutSeq(x));
        return x.body;
      };
      const runs = await same('/runs') as Array<{ id: string }>;
      expect(runs.map(r => r.id)).toEqual([runId]);
      const run = await same(`/runs/${runId}`) as { counts: { total: number; done: number }; results: unknown };
      expect(run.counts.total).toBeGreaterThan(10);
      expect(run.results).toBeTruthy();
      const trials = await same(`/runs/${runId}/trials?limit=500`) as { total: number; rows: Array<{ trialId?: string; id?: string; model?: string }> };
      expect(trials.total).toBe(run.counts.total);
      await same(`/runs/${runId}/trials?limit=5&offset=3`);
      // Every trial in full: its calls with the raw provider body, scores, judges.
      let raw = 0;
      for (const row of trials.rows) {
        const id = row.trialId ?? row.id!;
        const detail = await same(`/runs/${runId}/trials/${id}`) as { calls: Array<{ response: unknown }> };
        raw += detail.calls.filter(c => c.response !== null).length;
      }
      expect(raw).toBeGreaterThan(0);
      expect((await onPg(`/runs/${runId}/trials/nope`)).status).toBe(404);
    } finally {
      await model.close();
    }
  }, 240_000);
});
