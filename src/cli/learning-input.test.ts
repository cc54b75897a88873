import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadShippedUnit, startStudyServer } from '../learning/testing/study-server.js';
import type { FakeServer } from '../providers/testing/fake-servers.js';
import { startRun } from '../runs.js';
import { openStore } from '../store/index.js';
import { runCli } from './testing/run-cli.js';
import { runPasted } from './testing/run-pasted.js';

const servers: FakeServer[] = [];
afterAll(async () => Promise.all(servers.map(s => s.close())));
const hintAfter = (stderr: string, lead: string) => stderr.split('\n').find(l => l.startsWith(lead))!.slice(lead.length).trim();

describe('paideia learning run: bad input and the cost cap', () => {
  it('reports every bad flag at once, naming it, and exits 2 before anything is stored', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-learning-bad-'));
    const r = await runCli(['learning', 'run', '--units', 'no-such-unit', '--generator', 'g=baseline:gold', '--learner', 'g=baseline:examples',
      '--learner', 'l=openai', '--images', 'nobody'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no unit "no-such-unit"; known: abma-serial-verbs');
    const again = r;
    expect(again.stderr).toContain('"baseline:gold" is not a deck generator; the built-in ones are baseline:blank-deck, baseline:outline');
    expect(again.stderr).toContain('bad model spec "l=openai"');
    expect(again.stderr).toContain('the name "g" is given twice');
    expect(again.stderr).toContain('"nobody" is not the NAME of a learner or judge');
  }, 60_000);

  it('stops at the cost cap (exit 3, resumable) and the printed resume command finishes the run', async () => {
    const unit = loadShippedUnit('udihe-possession');
    const server = await startStudyServer([unit]);
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-learning-cap-'));
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ date: '2026-12-01', models: { 'openai:gen-good': { input: 50, output: 50 } } }));
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const capped = await runCli(['learning', 'run', '--units', unit.id, '--generator', 'good=openai:gen-good', '--learner', 'floor=baseline:examples',
      '--prices', 'prices.json', '--cost-cap', '0.01', '--store', `sqlite:${join(cwd, 's.db')}`], { cwd, env });
    expect(capped.code, capped.stderr).toBe(3);
    // the generator's worst case (12,000 tokens at $50/M) is over the cap: it is never asked
    expect(server.requests).toHaveLength(0);
    // --prices was given relative: the hint names it so that it runs from any folder
    const resumed = await runPasted(hintAfter(capped.stderr, 'resume with:'), { cwd: mkdtempSync(join(tmpdir(), 'paideia-learning-elsewhere-')), env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trim()).toBe(capped.stdout.trim());
    expect(server.requests).toHaveLength(1);
  }, 120_000);

  it('a generator call that times out is stored with the resume that gives it longer (learning run has no --timeout); pasted, it finishes the run, and rescore names its report', async () => {
    const unit = loadShippedUnit('udihe-possession');
    const server = await startStudyServer([unit]);
    servers.push(server);
    server.enqueue({ hang: true });
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-learning-timeout-'));
    const url = `sqlite:${join(cwd, 's.db')}`;
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const store = await openStore(url);
    let runId: string;
    let message: string | undefined;
    try {
      const outcome = await startRun({
        kind: 'learning', units: [unit.id], generators: ['good=openai:gen-good'], learners: ['floor=baseline:examples'], maxAttempts: 1, timeoutMs: 100,
      }, { store, env }).done;
      runId = outcome.runId;
      expect(outcome.failed).toBe(1);
      message = (await store.listCalls(runId)).find(c => c.error)?.error?.message;
    } finally {
      await store.close();
    }
    const hint = /did not answer within 100 ms \(if the model is slow, continue with a longer one: (.*)\)\.$/.exec(message ?? '')?.[1];
    expect(hint, message).toMatch(new RegExp(`^(npx )?paideia run --resume ${runId} --retry-errors --timeout 200 --store `));
    const resumed = await runPasted(hint!, { cwd, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`run ${runId} (learning): 2 done, 0 failed, 0 pending`);
    // rescore has nothing to do for a learning run and names its report, with the store
    const rescored = await runCli(['rescore', runId, '--store', url], { cwd });
    expect(rescored.code, rescored.stderr).toBe(0);
    const report = /its report: (.*)$/m.exec(rescored.stdout + rescored.stderr)?.[1];
    expect(report).toMatch(new RegExp(`^paideia learning report ${runId} --store `));
    const pasted = await runPasted(report!, { cwd: tmpdir() });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toContain(runId);
  }, 120_000);
});
