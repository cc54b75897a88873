import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import type { ReportData } from '../report/index.js';
import { runCli } from './testing/run-cli.js';

const suite = new URL('./__fixtures__/mini-suite.jsonl', import.meta.url).pathname;
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const workdir = () => mkdtempSync(join(tmpdir(), 'paideia-summary-'));
const pct = (x: number | null) => (x === null ? '–' : (x * 100).toFixed(1));

describe('the terminal summary a run ends with', () => {
  it('shows model x test with mean, interval, n and cost, the same numbers as the report, before the report path', async () => {
    const server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'Aetópaigh', usage: { prompt_tokens: 10, completion_tokens: 5 } }) }) });
    servers.push(server);
    const cwd = workdir();
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ date: '2026-11-29', models: { 'openai:tutor-1': { input: 1000, output: 2000 } } }));
    const r = await runCli(['run', suite, '-m', 'openai:tutor-1', '-m', 'baseline:copy', '--repeats', '1', '--prices', prices, '--base-url', server.baseURL, '--report', 'r.html'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    const head = lines.findIndex(l => /^model\s+test\s+mean\s+95% CI\s+n\s+cost$/.test(l));
    expect(head, r.stderr).toBeGreaterThan(0);
    expect(lines.findIndex(l => l.startsWith('report: '))).toBeGreaterThan(head);
    const json = await runCli(['report', r.stdout.trim(), '--format', 'json', '-o', '-'], { cwd });
    const d = JSON.parse(json.stdout) as ReportData;
    for (const c of d.cells) {
      const row = lines.find(l => l.startsWith(c.model) && l.includes(` ${c.test} `));
      expect(row, `${c.model} ${c.test}`).toBeDefined();
      expect(row!.split(/\s{2,}/).slice(1, 6)).toEqual([c.test, `${pct(c.mean)}%`, `[${pct(c.low)}, ${pct(c.high)}]`, String(c.n), `$${c.costUsd!.toFixed(4)}`]);
    }
    expect(r.stderr).toMatch(/^total cost \$0\.1000;/m);
  });

  it('demo prints it too, and a model with no price shows "unknown", never $0', async () => {
    const demo = await runCli(['demo'], { cwd: workdir() });
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stderr).toMatch(/^baseline:gold \(baseline\)\s+grammar_forms\s+100\.0%\s+\[100\.0, 100\.0\]\s+20\s+\$0\.0000$/m);
    // README shows this very table (its first code block stays the two commands)
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(/```sh\n([^`]*)```/.exec(readme)![1]).toBe('npm ci && npm run demo\nnpm test\n');
    const shown = /```text\n(model[^`]*?)\n\nreport: /.exec(readme)![1]!;
    expect(demo.stderr).toContain(shown);
    const server = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'x' }) }) });
    servers.push(server);
    const r = await runCli(['run', suite, '-m', 'openai:no-such-price', '--repeats', '1', '--base-url', server.baseURL], { cwd: workdir() });
    expect(r.stderr).toMatch(/^openai:no-such-price\s+grammar_forms\s+.*\s+unknown$/m);
    expect(r.stderr).toMatch(/^total cost \$0\.0000 \+ unknown \(no price for openai:no-such-price\)/m);
  });
});
