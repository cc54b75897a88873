import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';

const suite = new URL('../__fixtures__/mini-suite.jsonl', import.meta.url).pathname;

describe('paideia report', () => {
  it('-o - writes the report to stdout and no file named "-"', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-report-'));
    const run = await runCli(['run', suite, '-m', 'baseline:gold', '-m', 'baseline:copy', '--repeats', '1'], { cwd });
    const runId = run.stdout.trim();
    const json = await runCli(['report', runId, '--format', 'json', '-o', '-'], { cwd });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { runId: string }).runId).toBe(runId);
    const md = await runCli(['report', runId, '--format', 'md', '--out', '-'], { cwd });
    expect(md.stdout).toMatch(/^# Paideia report/);
    expect(existsSync(join(cwd, '-'))).toBe(false);
    // A path that cannot be written is one message naming it (exit 2), not a stack trace.
    writeFileSync(join(cwd, 'a-file'), '');
    const blocked = await runCli(['report', runId, '--format', 'md', '--out', join(cwd, 'a-file', 'r.md')], { cwd });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toBe(`error: field "--out": cannot write ${join(cwd, 'a-file', 'r.md')} (a part of the path is a file, not a folder): name a file in a folder you can write, or print it with --out -\n`);
  });

  it('--model NAME writes the page of that model alone, and an unknown name exits 2 listing the models', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-report-'));
    const runId = (await runCli(['run', suite, '-m', 'baseline:gold', '-m', 'baseline:copy', '--repeats', '1'], { cwd })).stdout.trim();
    const page = await runCli(['report', runId, '--format', 'json', '--model', 'baseline:copy'], { cwd });
    expect(page.code, page.stderr).toBe(0);
    const file = page.stdout.trim();
    expect(file).toBe(`.paideia/reports/${runId}.baseline_copy.json`);
    const d = JSON.parse(readFileSync(join(cwd, file), 'utf8')) as { models: Array<{ alias: string }>; cells: Array<{ model: string }>; failures: Array<{ model: string }> };
    expect(d.models.map(m => m.alias)).toEqual(['baseline:copy']);
    expect(new Set(d.cells.map(c => c.model))).toEqual(new Set(['baseline:copy']));
    expect(d.failures.length).toBeGreaterThan(0);
    const bad = await runCli(['report', runId, '--model', 'gpt'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/field "--model": run run-\w+ has no model "gpt"; its models are baseline:gold, baseline:copy/);
  });
});
