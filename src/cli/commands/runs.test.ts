import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';

const suite = new URL('../__fixtures__/mini-suite.jsonl', import.meta.url).pathname;

describe('paideia runs', () => {
  it('prints a table with a header (status, models, trials, failures, cost, date) and the same as JSON', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-runs-'));
    const run = await runCli(['run', suite, '-m', 'baseline:gold', '-m', 'baseline:copy', '--repeats', '2'], { cwd });
    const runId = run.stdout.trim();
    const table = await runCli(['runs'], { cwd });
    expect(table.code, table.stderr).toBe(0);
    const [header, line, ...rest] = table.stdout.trimEnd().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['run', 'status', 'models', 'trials', 'failures', 'cost', 'date']);
    expect(line!.split(/\s{2,}/).slice(0, 6)).toEqual([runId, 'completed', 'baseline:gold, baseline:copy', '20', '0', '$0.0000']);
    expect(line).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(rest).toEqual([]);
    const json = await runCli(['runs', '--format', 'json'], { cwd });
    const [r] = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(r).toMatchObject({ id: runId, status: 'completed', models: ['baseline:gold', 'baseline:copy'], trials: 20, failures: 0, costUsd: 0, costIncomplete: false });
    expect((await runCli(['runs', '--format', 'csv'], { cwd })).code).toBe(2);
  });

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
