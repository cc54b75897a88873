import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer } from '../../providers/testing/fake-servers.js';
import { LOOP_SCENARIO } from '../../scenarios/testing/fixtures.js';
import { runCli, startCli, waitFor } from '../testing/run-cli.js';
import { runPasted } from '../testing/run-pasted.js';

const suite = new URL('../__fixtures__/mini-suite.jsonl', import.meta.url).pathname;

describe('paideia runs', () => {
  it('prints a table with a header (kind, status, models, trials, failures, cost, date) and the same as JSON', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-runs-'));
    const run = await runCli(['run', suite, '-m', 'baseline:gold', '-m', 'baseline:copy', '--repeats', '2'], { cwd });
    const runId = run.stdout.trim();
    const table = await runCli(['runs'], { cwd });
    expect(table.code, table.stderr).toBe(0);
    const [header, line, ...rest] = table.stdout.trimEnd().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['run', 'kind', 'status', 'models', 'trials', 'failures', 'cost', 'date']);
    expect(line!.split(/\s{2,}/).slice(0, 7)).toEqual([runId, 'suite', 'completed', 'baseline:gold, baseline:copy', '20', '0', '$0.0000']);
    expect(line).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(rest).toEqual([]);
    const json = await runCli(['runs', '--format', 'json'], { cwd });
    const [r] = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(r).toMatchObject({ id: runId, kind: 'suite', status: 'completed', interrupted: false, resume: null, models: ['baseline:gold', 'baseline:copy'], trials: 20, failures: 0, costUsd: 0, costIncomplete: false });
    expect((await runCli(['runs', '--format', 'csv'], { cwd })).code).toBe(2);
  });

  it('shows a run whose process was killed (kill -9) as interrupted, with a resume command that finishes it; a live one stays running', async () => {
    let answering = false;
    const server = await startOpenAICompatibleServer({
      reply: req => (answering
        ? { body: openAIChatBody({ text: (req.body as { model: string }).model === 'judge-model' ? '<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>' : 'Yes. <end>' }) }
        : { hang: true }),
    });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'paideia-runs-'));
      writeFileSync(join(cwd, 'loop.yaml'), LOOP_SCENARIO.replaceAll('http://127.0.0.1:9/v1', server.baseURL));
      // A short lease: a run that changed within one may still be planning, so it counts as running.
      const env = { PAIDEIA_CLAIM_TTL_MS: '1000' };
      const { child, done } = startCli(['scenario', 'run', 'loop.yaml', '--store', 'sqlite:s.db'], { cwd, env });
      await waitFor(() => server.requests.length >= 2, 'the scenario run did not get going');
      await new Promise(r => setTimeout(r, 1500));
      const live = await runCli(['runs', '--store', 'sqlite:s.db'], { cwd, env });
      expect(live.stdout.split('\n')[1]!.split(/\s{2,}/).slice(1, 3)).toEqual(['scenario', 'running']);
      expect(live.stdout).not.toContain('interrupted');
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');

      const claims = () => {
        const db = new Database(join(cwd, 's.db'), { readonly: true });
        try { return db.prepare('SELECT COUNT(*) AS n FROM claims').get() as { n: number }; } finally { db.close(); }
      };
      const before = claims();
      expect(before.n).toBeGreaterThan(0);
      const table = await runCli(['runs', '--store', 'sqlite:s.db'], { cwd, env });
      expect(table.code, table.stderr).toBe(0);
      const [, line, note] = table.stdout.trimEnd().split('\n');
      const runId = line!.split(/\s{2,}/)[0]!;
      expect(line!.split(/\s{2,}/).slice(1, 3)).toEqual(['scenario', 'stopped (interrupted)']);
      const hint = `paideia run --resume ${runId} --store sqlite:${join(cwd, 's.db')}`;
      expect(note).toBe(`run ${runId} was interrupted (no process is working on it); resume it with: ${hint}`);
      const [j] = JSON.parse((await runCli(['runs', '--format', 'json', '--store', 'sqlite:s.db'], { cwd, env })).stdout) as Array<Record<string, unknown>>;
      expect(j).toMatchObject({ id: runId, kind: 'scenario', status: 'running', interrupted: true, resume: hint });
      // the listing wrote nothing: the dead process's claims are still there for the resume to take over
      expect(claims()).toEqual(before);

      answering = true;
      const resumed = await runPasted(hint, { cwd, env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = await runCli(['runs', '--store', 'sqlite:s.db'], { cwd, env });
      expect(after.stdout.trimEnd().split('\n').slice(1).map(l => l.split(/\s{2,}/).slice(0, 3))).toEqual([[runId, 'scenario', 'completed']]);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('lists a scenario run planned with --plan-only as stopped, planned and waiting for workers, as a plan-only suite run; a worker then finishes it', async () => {
    const server = await startOpenAICompatibleServer({
      reply: req => ({ body: openAIChatBody({ text: (req.body as { model: string }).model === 'judge-model' ? '<json>{"clarity": 4, "warmth": 4, "comment": "ok"}</json>' : 'Yes. <end>' }) }),
    });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'paideia-runs-'));
      writeFileSync(join(cwd, 'loop.yaml'), LOOP_SCENARIO.replaceAll('http://127.0.0.1:9/v1', server.baseURL));
      const planned = await runCli(['scenario', 'run', 'loop.yaml', '--plan-only', '--store', 'sqlite:s.db'], { cwd });
      expect(planned.code, planned.stderr).toBe(0);
      const runId = planned.stdout.trim();
      const suiteRun = await runCli(['run', suite, '-m', 'baseline:gold', '--repeats', '1', '--plan-only', '--store', 'sqlite:s.db'], { cwd });
      expect(suiteRun.code, suiteRun.stderr).toBe(0);
      expect(server.requests).toHaveLength(0);

      const table = await runCli(['runs', '--store', 'sqlite:s.db'], { cwd });
      expect(table.code, table.stderr).toBe(0);
      const rows = table.stdout.trimEnd().split('\n').slice(1).map(l => l.split(/\s{2,}/).slice(0, 3));
      expect(rows).toEqual(expect.arrayContaining([[runId, 'scenario', 'stopped'], [suiteRun.stdout.trim(), 'suite', 'stopped']]));
      expect(rows).toHaveLength(2);
      const json = JSON.parse((await runCli(['runs', '--format', 'json', '--store', 'sqlite:s.db'], { cwd })).stdout) as Array<Record<string, unknown>>;
      for (const id of [runId, suiteRun.stdout.trim()]) {
        expect(json.find(r => r.id === id)).toMatchObject({ status: 'stopped', note: 'planned; waiting for workers', interrupted: false, resume: null });
      }

      const worked = await runCli(['worker', '--run', runId, '--store', 'sqlite:s.db'], { cwd });
      expect(worked.code, worked.stderr).toBe(0);
      expect(worked.stderr).toMatch(/this worker finished 8 trial\(s\), 0 failed/);
      const after = JSON.parse((await runCli(['runs', '--format', 'json', '--store', 'sqlite:s.db'], { cwd })).stdout) as Array<Record<string, unknown>>;
      expect(after.find(r => r.id === runId)).toMatchObject({ status: 'completed', note: null });
    } finally {
      await server.close();
    }
  }, 120_000);

  it('bundle writes the run as one static HTML file with its results and trials, keys of the environment redacted; a missing run is exit 2 with the runs hint', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-runs-'));
    const runId = (await runCli(['run', suite, '-m', 'baseline:gold', '--repeats', '1'], { cwd })).stdout.trim();
    const r = await runCli(['runs', 'bundle', runId, '--out', 'run.html'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`bundle: ${join(cwd, 'run.html')}`);
    const html = readFileSync(join(cwd, 'run.html'), 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`<h1>Run ${runId}</h1>`);
    expect(html).toContain('<h2>Trials (5)</h2>');
    // A path under a file: exit 2 naming --out, and no advice to print it (a bundle is a file, --out - is not offered).
    const blocked = await runCli(['runs', 'bundle', runId, '--out', 'run.html/x.html'], { cwd });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toBe(`error: field "--out": cannot write ${join(cwd, 'run.html', 'x.html')} (a part of the path is a file, not a folder): name a file in a folder you can write\n`);
    const missing = await runCli(['runs', 'bundle', 'run-nope'], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no run "run-nope" in sqlite:.*; list runs with: paideia runs --store sqlite:/);
  });

  it('bundle reads the store named by --store, after `bundle` or before it (the flag belongs to `runs`)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-runs-'));
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), 'paideia-runs-elsewhere-')), 'other.db')}`;
    const runId = (await runCli(['run', suite, '-m', 'baseline:gold', '--repeats', '1', '--store', store], { cwd })).stdout.trim();
    const after = await runCli(['runs', 'bundle', runId, '--out', 'after.html', '--store', store], { cwd });
    expect(after.code, after.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'after.html'), 'utf8')).toContain(`<h1>Run ${runId}</h1>`);
    const before = await runCli(['runs', '--store', store, 'bundle', runId, '--out', 'before.html'], { cwd });
    expect(before.code, before.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'before.html'), 'utf8')).toContain(`<h1>Run ${runId}</h1>`);
  });
});
