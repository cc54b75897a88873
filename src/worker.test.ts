import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandHint } from './core/command-hint.js';
import { ConfigError, type Store } from './core/index.js';
import { grammarSuiteFile } from './cli/testing/grammar-suite.js';
import { runCli, startCli, waitFor } from './cli/testing/run-cli.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from './providers/testing/fake-servers.js';
import { startRun } from './runs.js';
import { LOOP_SCENARIO, scenarioDir } from './scenarios/testing/fixtures.js';
import { openStore } from './store/index.js';
import { runWorker } from './worker.js';

const BATCH = 4;

/** A store with a planned run of 12 grammar items for baseline:gold (no model server needed). */
async function plannedSuite(): Promise<{ store: Store; runId: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'paideia-worker-gone-'));
  const store = await openStore(`sqlite:${join(dir, 's.db')}`);
  const { runId } = await startRun({ kind: 'suite', suites: [grammarSuiteFile(dir, 'gone', 12)], models: ['baseline:gold'], repeats: 1, planOnly: true }, { store }).done;
  return { store, runId };
}

/** Delete `target` (as `paideia runs delete --force` does) once the worker's first batch of it has stored its trials. */
function deleteAfterFirstBatch(store: Store, target: string) {
  let trials = 0;
  return (runId: string, e: { type: string }) => {
    if (runId === target && e.type === 'trial' && ++trials === BATCH) void store.deleteRun(runId, { force: true });
  };
}

describe('a worker whose run is deleted while it works', () => {
  it('with --run: says the run is no longer in the store and how to list runs, not "--resume: no run"', async () => {
    const { store, runId } = await plannedSuite();
    try {
      const error = await runWorker({ store, runId, batch: BATCH, concurrency: 1, onEvent: deleteAfterFirstBatch(store, runId) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      const [issue, ...more] = (error as ConfigError).issues;
      expect(more).toEqual([]);
      expect(issue!.field).toBe('--run');
      expect(issue!.message).toBe(`run ${runId} is no longer in ${store.url} (deleted while this worker worked on it?); this worker finished ${BATCH} trial(s) of it, 0 failed. `
        + `List the runs with: ${commandHint(['runs'], store.url)}`);
    } finally {
      await store.close();
    }
  });

  it('without --run: goes on with the other runs, reports the deleted one, and plans no scenario run anew', async () => {
    const script = JSON.stringify({ byRole: { teacher: ['Why?', 'Yes. <end>'], student: ['Because.'], judge: ['<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>'] }, onEnd: 'repeat-last' });
    const dir = scenarioDir({
      'loop.yaml': LOOP_SCENARIO.replace(/\{ type: openai, model: (tutor|learner|judge)-model, api_base: http:\/\/127\.0\.0\.1:9\/v1 \}/g, '{ type: baseline, model: script, script: s.json }'),
      's.json': script,
    });
    const { store, runId: suiteRun } = await plannedSuite();
    try {
      const scenario = await startRun({ kind: 'scenario', file: join(dir, 'loop.yaml'), planOnly: true }, { store }).done;
      const summary = await runWorker({ store, batch: BATCH, concurrency: 1, onEvent: deleteAfterFirstBatch(store, scenario.runId) });
      expect(summary.runs.find(r => r.runId === scenario.runId)).toMatchObject({ deleted: true });
      expect(await store.getRun(scenario.runId)).toBeUndefined();
      expect(summary.runs.find(r => r.runId === suiteRun)).toMatchObject({ done: 12, failed: 0 });
      expect((await store.getRun(suiteRun))?.status).toBe('completed');
    } finally {
      await store.close();
    }
  });
});

describe('paideia worker whose run is deleted with --force while its calls are in flight', () => {
  const servers: FakeServer[] = [];
  afterEach(async () => { await Promise.all(servers.splice(0).map(s => s.close())); });

  it('stops the run cleanly: exit 2 with the deleted-run message, no unhandled ClaimLostError', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-worker-forced-'));
    const suite = grammarSuiteFile(cwd, 'forced', 40);
    // The server holds every answer until the run is deleted: the worker's calls are in flight then.
    let open!: () => void;
    const gate = new Promise<void>(resolve => (open = resolve));
    let answered = 0;
    const server = await startOpenAICompatibleServer({
      reply: async req => {
        await gate;
        answered++;
        const n = JSON.stringify(req.body).match(/focal(\d+)/)?.[1] ?? 'x';
        return { status: 200, body: openAIChatBody({ text: `focail${n}`, usage: { prompt_tokens: 10, completion_tokens: 5 } }) };
      },
    });
    servers.push(server);
    const db = `sqlite:${join(cwd, 's.db')}`;
    const planned = await runCli(['run', suite, '-m', 'openai:m', '--repeats', '1', '--base-url', server.baseURL, '--store', db, '--plan-only'], { cwd });
    expect(planned.code, planned.stderr).toBe(0);
    const runId = planned.stdout.trim();
    const worker = startCli(['worker', '--store', db, '--run', runId, '--concurrency', '4', '--batch', '8'], { cwd });
    await waitFor(() => server.requests.length === 4, 'the worker\'s first 4 calls');
    const deleted = await runCli(['runs', 'delete', runId, '--yes', '--force', '--store', db], { cwd });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe(runId);
    open();
    const r = await worker.done;
    expect(r.stderr).not.toMatch(/ClaimLostError|\n\s+at /);
    expect(r.stderr).toContain(`field "--run": run ${runId} is no longer in ${db} (deleted while this worker worked on it?); this worker finished 0 trial(s) of it, 0 failed. `
      + `List the runs with: paideia runs --store ${db}`);
    expect(r.code, r.stderr).toBe(2);
    // The 4 calls in flight were answered; a slot an answer freed may have sent one more request
    // before that answer's refused write stopped the run, but no more: at most one per slot.
    expect(answered).toBe(server.requests.length);
    expect(server.requests.length).toBeGreaterThanOrEqual(4);
    expect(server.requests.length).toBeLessThanOrEqual(8);
    // Nothing of the run came back: no call stored, nothing planned anew.
    const store = await openStore(db);
    try {
      expect(await store.getRun(runId)).toBeUndefined();
      expect(await store.listCalls(runId)).toEqual([]);
      expect(await store.listRuns()).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
