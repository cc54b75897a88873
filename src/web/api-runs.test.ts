import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandHint } from '../core/command-hint.js';
import type { RunOutcome, Store } from '../core/index.js';
import { loadShippedUnit, startStudyServer } from '../learning/testing/study-server.js';
import type { FakeServer } from '../providers/testing/fake-servers.js';
import { summarizeRuns } from '../report/runs-summary.js';
import { startRun } from '../runs.js';
import { openStore } from '../store/index.js';
import type { RunInUseAnswer } from './api-types.js';
import { startApiServer } from './testing/api-server.js';
import type { RunningServer } from './serve.js';

// A real learning run: 2 decks, each studied by 2 learners (one whose calls all fail) and rated by a judge on D1 and D2.
let dir: string;
let server: FakeServer;
let store: Store;
let web: RunningServer;
let outcome: RunOutcome;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paideia-api-runs-'));
  const unit = loadShippedUnit('udihe-possession');
  server = await startStudyServer([unit]);
  store = await openStore(`sqlite:${join(dir, 'p.db')}`);
  const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'k' };
  outcome = await startRun({
    kind: 'learning', units: [unit.id], generators: ['good=openai:gen-good', 'floor=baseline:blank-deck'],
    learners: ['strong=openai:learner-strong', 'broken=openai:learner-broken'], judges: ['j=openai:judge'], maxAttempts: 1,
  }, { store, env }).done;
  web = await startApiServer(store, dir, { env });
}, 180_000);
afterAll(async () => {
  await web?.close();
  await store?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async <T>(path: string) => (await fetch(`${web.url}/api${path}`)).json() as Promise<T>;
const del = (path: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => fetch(`${web.url}/api${path}`, { method: 'DELETE', headers, body: '{}' });

describe('the runs API on a learning run', () => {
  it('counts every trial of every step kind, as the engine and paideia runs do', async () => {
    const all = outcome.done + outcome.failed + outcome.pending;
    // 2 decks + 2 x 2 learners + 2 x 2 judge trials (D1, D2).
    expect(all).toBe(10);
    expect(outcome.failed).toBe(2);
    const [listed] = await get<Array<{ id: string; trials: number; failures: number }>>('/runs');
    const [cli] = await summarizeRuns(store);
    expect([listed!.trials, listed!.failures]).toEqual([all, outcome.failed]);
    expect([cli!.trials, cli!.failures]).toEqual([all, outcome.failed]);
    const detail = await get<{ counts: { total: number; done: number; failed: number; pending: number; byKind: Array<{ kind: string; total: number; failed: number }> } }>(`/runs/${outcome.runId}`);
    expect([detail.counts.total, detail.counts.done, detail.counts.failed, detail.counts.pending]).toEqual([all, outcome.done, outcome.failed, outcome.pending]);
    expect(detail.counts.byKind.map(k => [k.kind, k.total, k.failed])).toEqual([['learning-deck', 2, 0], ['learning-learner', 4, 2], ['learning-judge', 4, 0]]);
  });

  it('says where the cost is incomplete, as the runs list does, and where the running means start', async () => {
    const id = outcome.runId;
    const [listed] = await get<Array<{ costIncomplete: boolean; modelSpecs: Array<{ alias: string; spec: string }> }>>('/runs');
    const [cli] = await summarizeRuns(store);
    // The scripted generators, learners and judge have no price in the run's table.
    expect(cli!.costIncomplete).toBe(true);
    expect(listed!.costIncomplete).toBe(true);
    expect(listed!.modelSpecs).toContainEqual({ alias: 'good', spec: 'openai:gen-good' });
    expect(listed!.modelSpecs).toContainEqual({ alias: 'floor', spec: 'baseline:blank-deck' });
    const detail = await get<{ costIncomplete: boolean; scoresSoFar: Array<{ model: string; sum: number; n: number }> }>(`/runs/${id}`);
    expect(detail.costIncomplete).toBe(true);
    // Trials that judge or study another (judges, learners) are left out of the running means, as the live page leaves them out.
    const trials = await store.listTrials(id);
    const targeted = new Set(trials.filter(t => t.target).map(t => t.id));
    const scores = await store.listScores(id);
    const own = scores.filter(s => !targeted.has(s.trialId) && s.value !== null);
    expect(detail.scoresSoFar.reduce((a, m) => a + m.n, 0)).toBe(own.length);
    for (const alias of ['j', 'strong', 'broken']) expect(detail.scoresSoFar.map(m => m.model)).not.toContain(alias);
    const deck = trials.find(t => t.modelAlias === 'good' && !t.target)!;
    const trial = await get<{ costIncomplete: boolean; trial: { id: string } }>(`/runs/${id}/trials/${deck.id}`);
    expect([trial.trial.id, trial.costIncomplete]).toEqual([deck.id, true]);
  });

  it('offers no blind share link for a judged learning run, and says what to give experts instead if one is asked for', async () => {
    const id = outcome.runId;
    expect((await store.listJudgments(id)).length).toBeGreaterThan(0);
    expect((await get<{ judged: boolean }>(`/runs/${id}`)).judged).toBe(false);
    const res = await fetch(`${web.url}/api/runs/${id}/blind`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rater: 'zed' }) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`share links score a scenario run's dialogues; this is a learning run: give experts the blank expert file of ${commandHint(['validity', 'template', '--run', id, '--out', 'experts.csv'], store.url)} instead`);
    expect(await store.listArtifacts(id, 'web-blind-task')).toEqual([]);
  });

  it('resumes a run the library started (not the web app) from the config the run keeps', async () => {
    const id = outcome.runId;
    expect((await get<{ resumable: boolean }>(`/runs/${id}`)).resumable).toBe(true);
    const before = server.requests.length;
    const res = await fetch(`${web.url}/api/runs/${id}/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { runId: string }).runId).toBe(id);
    // The same run, continued: its two failed trials stay failed (no --retry-errors), nothing is asked again.
    await expect.poll(async () => (await get<{ live: { finished: boolean } | null }>(`/runs/${id}`)).live?.finished, { timeout: 30_000 }).toBe(true);
    expect(server.requests.length).toBe(before);
    expect((await store.listRuns()).map(r => r.id)).toEqual([id]);
  });

  it('deletes a run under the write rules: JSON only, same origin, refused while a worker holds it unless forced, then the run and its trial index are gone', async () => {
    const id = outcome.runId;
    expect((await get<{ total: number }>(`/runs/${id}/trials`)).total).toBe(2);
    expect((await del(`/runs/${id}`, {})).status).toBe(415);
    expect((await del(`/runs/${id}`, { 'content-type': 'application/json', origin: 'http://evil.example' })).status).toBe(403);
    expect((await get<unknown[]>('/runs'))).toHaveLength(1);
    const worker = { workerId: 'w1', pid: 7, host: 'lab' };
    const deck = (await store.listTrials(id))[0]!;
    const until = Date.now() + 60_000;
    await store.claimTrials(id, worker, [deck.id], until);
    const inUse = await del(`/runs/${id}`);
    expect(inUse.status).toBe(409);
    const answer = (await inUse.json()) as RunInUseAnswer;
    expect(answer.error).toMatch(/in use: 1 trial\(s\) held by worker w1 \(pid 7 on lab\).*\?force=1.*paideia runs delete .* --force --yes/);
    // The command names this server's store: pasted without it, it would look in .paideia/paideia.db.
    expect(answer.error).toContain(`or run: ${commandHint(['runs', 'delete', id, '--force', '--yes'], store.url)}`);
    expect(answer.error).toMatch(/ --force --yes --store \S+$/);
    // Who holds it until when, for the page to say.
    expect(answer.inUse.holders).toEqual([{ workerId: 'w1', pid: 7, host: 'lab', trials: 1, expiresAt: new Date(until).toISOString() }]);
    expect((await del(`/runs/${id}?force=0`)).status).toBe(409);
    expect(await store.getRun(id)).toBeDefined();
    // Forced while the claim is live: deleted with everything, as the CLI's --force does.
    const ok = await del(`/runs/${id}?force=1`);
    expect(ok.status).toBe(200);
    const { deleted } = (await ok.json()) as { deleted: { runId: string; trials: number; calls: number; blobs: number } };
    expect(deleted).toMatchObject({ runId: id, trials: 10 });
    expect(deleted.calls).toBeGreaterThan(0);
    // The good deck's HTML and slide images were its own.
    expect(deleted.blobs).toBeGreaterThan(0);
    expect(await get<unknown[]>('/runs')).toEqual([]);
    expect((await fetch(`${web.url}/api/runs/${id}/trials`)).status).toBe(404);
    expect((await del(`/runs/${id}`)).status).toBe(404);
  });
});
