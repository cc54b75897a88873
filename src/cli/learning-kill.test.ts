import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadShippedUnit, startStudyServer } from '../learning/testing/study-server.js';
import type { FakeServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import { runCli, startCli, waitFor } from './testing/run-cli.js';

const unit = loadShippedUnit('chickasaw-case-and-person');
const servers: FakeServer[] = [];
afterAll(async () => Promise.all(servers.map(s => s.close())));

async function storedCalls(db: string) {
  const s = await openStore(db, { mustExist: true, readOnly: true });
  try {
    const runs = await s.listRuns();
    return runs.length ? await s.listCalls(runs[0]!.id) : [];
  } finally {
    await s.close();
  }
}

describe('learning run killed with SIGKILL', () => {
  it('keeps every stored call, and the same command asks only for what was not stored', async () => {
    const server = await startStudyServer([unit], { delayMs: 40 });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-learning-kill-'));
    const db = `sqlite:${join(cwd, 'study.db')}`;
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const args = ['learning', 'run', '--units', unit.id, '--generator', 'good=openai:gen-good', '--generator', 'poor=openai:gen-poor',
      '--learner', 'strong=openai:learner-strong', '--judge', 'ja=openai:judge-a', '--concurrency', '2', '--store', db];
    const { child, done } = startCli(args, { cwd, env });
    await waitFor(() => server.requests.length >= 8, 'the learning run did not get going', 60_000);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    const before = await storedCalls(db);
    expect(before.length).toBeGreaterThan(0);
    const requestsBefore = server.requests.length;

    const resumed = await runCli(args, { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await storedCalls(db);
    // one stored answer per step: nothing asked twice
    const keys = after.filter(c => c.status === 'ok').map(c => `${c.trialId}#${c.step}`);
    expect(new Set(keys).size).toBe(keys.length);
    // every call stored before the kill is still there, unchanged
    const now = new Map(after.map(c => [`${c.trialId}#${c.step}`, JSON.stringify(c.result)]));
    for (const c of before) expect(now.get(`${c.trialId}#${c.step}`)).toBe(JSON.stringify(c.result));
    // the resumed run sent one request per new uncached call, and none for what was stored
    const fresh = after.filter(c => !c.cached).length - before.filter(c => !c.cached).length;
    expect(server.requests.length - requestsBefore).toBe(fresh);
    const s = await openStore(db, { mustExist: true, readOnly: true });
    try {
      const run = (await s.listRuns())[0]!;
      expect(run.status).toBe('completed');
      expect(await s.listArtifacts(run.id, 'learning.deck')).toHaveLength(2);
      expect(await s.listJudgments(run.id)).toHaveLength(4);
    } finally {
      await s.close();
    }
  }, 240_000);
});

describe('learning run stopped with Ctrl-C while its Chromium is up', () => {
  it('lets the calls in flight finish and stores them (exit 3, resume hint), and the run is stopped, not left running', async () => {
    // Slow answers, so calls are in flight when Ctrl-C comes; the generator's deck is rendered
    // (Chromium started) before any learner or judge call, so by the fourth request it is up.
    const server = await startStudyServer([unit], { delayMs: 400 });
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-learning-sigint-'));
    const db = `sqlite:${join(cwd, 'study.db')}`;
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const args = ['learning', 'run', '--units', unit.id, '--generator', 'good=openai:gen-good',
      '--learner', 'strong=openai:learner-strong', '--judge', 'ja=openai:judge-a', '--concurrency', '2', '--store', db];
    const { child, done } = startCli(args, { cwd, env });
    await waitFor(() => server.requests.length >= 4, 'the learning run did not reach its learners', 60_000);
    child.kill('SIGINT');
    const stopped = await done;
    // Chromium's own SIGINT handler (playwright's default) used to exit 130 here, mid-run.
    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(/finishing the calls in flight/);
    expect(stopped.stderr).toMatch(/resume with: paideia learning run /);
    // Every request the server got was answered and stored: nothing paid for is lost.
    const calls = (await storedCalls(db)).filter(c => !c.cached && c.status === 'ok');
    expect(calls.length).toBe(server.requests.length);
    const s = await openStore(db, { mustExist: true, readOnly: true });
    try {
      expect((await s.listRuns())[0]!.status).toBe('stopped');
    } finally {
      await s.close();
    }
  }, 240_000);
});
