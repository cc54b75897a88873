import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALOGUE_KIND } from '../../scenarios/dialogue.js';
import { ELMES_FIXTURES, startElmesServer } from '../../scenarios/testing/elmes-server.js';
import { openStore } from '../../store/index.js';
import { createDatabase, startTestCluster, type TestCluster } from '../../store/postgres/testing/cluster.js';
import { runCli, startCli } from '../testing/run-cli.js';

let cluster: TestCluster | undefined;
afterAll(() => cluster?.destroy());

/** What a store holds of a scenario run: statuses, dialogues, judgments, and calls per trial step. */
async function held(url: string, runId: string) {
  const s = await openStore(url, { mustExist: true, readOnly: true });
  try {
    const calls = await s.listCalls(runId);
    const steps = new Map<string, number>();
    for (const c of calls) steps.set(`${c.trialId}/${c.step}/${c.model ?? ''}`, (steps.get(`${c.trialId}/${c.step}/${c.model ?? ''}`) ?? 0) + 1);
    return {
      statuses: [...(await s.listTrialStatuses(runId)).values()], trials: (await s.listTrials(runId)).length,
      dialogues: (await s.listArtifacts(runId, DIALOGUE_KIND)).length, judgments: (await s.listJudgments(runId)).length,
      asked: calls.filter(c => !c.cached).length, mostPerStep: Math.max(...steps.values()), run: await s.getRun(runId),
    };
  } finally {
    await s.close();
  }
}

describe('paideia worker on a scenario run', () => {
  it('a scenario planned with --plan-only on PostgreSQL, run by three workers: every dialogue once, every call stored, the report of one process', async () => {
    cluster = await startTestCluster();
    const pg = createDatabase(cluster, 'scenario_workers');
    const server = await startElmesServer();
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'paideia-scenario-workers-'));
      const file = join(cwd, 'classic.yaml');
      copyFileSync(join(ELMES_FIXTURES, 'classic.yaml'), file);
      const env = { ELMES_BASE: server.baseURL, ELMES_KEY: 'k-local' };
      // 4 tasks x 5 repeats = 20 dialogues, each judged once.
      const planned = await runCli(['scenario', 'run', file, '--repeats', '5', '--store', pg, '--plan-only'], { cwd, env });
      expect(planned.code, planned.stderr).toBe(0);
      const runId = planned.stdout.trim();
      expect(planned.stderr).toMatch(/planned; run its dialogues and judgments with: paideia worker --run scn-\w+ --store postgres:/);
      expect(server.requests).toHaveLength(0);
      const workers = Array.from({ length: 3 }, () => startCli(['worker', '--store', pg, '--run', runId, '--batch', '3'], { cwd, env }));
      const results = await Promise.all(workers.map(w => w.done));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      // Work was shared: more than one worker ran dialogues.
      expect(results.filter(r => /finished [1-9]\d* trial/.test(r.stderr)).length).toBeGreaterThan(1);
      const shared = await held(pg, runId);
      expect(shared.run?.status).toBe('completed');
      expect([shared.trials, shared.statuses.length, shared.statuses.every(x => x === 'done')]).toEqual([40, 40, true]);
      expect([shared.dialogues, shared.judgments, shared.mostPerStep]).toEqual([20, 20, 1]);
      // Every request the server heard is a stored call, judge calls included, and no call was asked twice.
      expect(shared.asked).toBe(server.requests.length);
      const before = server.requests.length;

      const one = `sqlite:${join(cwd, 'one.db')}`;
      const single = await runCli(['scenario', 'run', file, '--repeats', '5', '--store', one], { cwd, env });
      expect(single.code, single.stderr).toBe(0);
      expect(single.stdout.trim()).toBe(runId);
      const alone = await held(one, runId);
      expect([alone.dialogues, alone.judgments, alone.asked]).toEqual([20, 20, server.requests.length - before]);
      expect(shared.asked).toBe(alone.asked);
      const report = async (store: string) => {
        const r = await runCli(['scenario', 'report', runId, '--store', store, '--format', 'json'], { cwd, env });
        expect(r.code, r.stderr).toBe(0);
        const { generatedAt: _when, ...data } = JSON.parse(r.stdout) as Record<string, unknown>;
        return data;
      };
      expect(await report(pg)).toEqual(await report(one));
    } finally {
      await server.close();
    }
  }, 300_000);

  it('--concurrency sets how many calls a scenario run has going, for `scenario run` and for a worker, in place of the file\'s globals.concurrency', async () => {
    const inFlight = { now: 0, most: 0 };
    const server = await startElmesServer({ delayMs: 100, inFlight });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'paideia-scenario-concurrency-'));
      const file = join(cwd, 'classic.yaml');
      // globals.concurrency: 4, and 4 tasks: 4 dialogues at once unless told otherwise.
      copyFileSync(join(ELMES_FIXTURES, 'classic.yaml'), file);
      const env = { ELMES_BASE: server.baseURL, ELMES_KEY: 'k-local' };
      const store = `sqlite:${join(cwd, 'p.db')}`;
      const most = async (args: string[]) => {
        inFlight.most = 0;
        const r = await runCli(args, { cwd, env });
        expect(r.code, r.stderr).toBe(0);
        return inFlight.most;
      };
      expect(await most(['scenario', 'run', file, '--repeats', '1', '--store', store])).toBe(4);
      expect(await most(['scenario', 'run', file, '--repeats', '2', '--concurrency', '1', '--store', store])).toBe(1);
      const planned = await runCli(['scenario', 'run', file, '--repeats', '3', '--store', store, '--plan-only'], { cwd, env });
      expect(planned.code, planned.stderr).toBe(0);
      expect(await most(['worker', '--store', store, '--run', planned.stdout.trim(), '--concurrency', '2'])).toBe(2);
    } finally {
      await server.close();
    }
  }, 120_000);
});
