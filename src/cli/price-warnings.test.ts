import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import type { ReportData } from '../report/index.js';
import { runCli } from './testing/run-cli.js';

const suite = new URL('./__fixtures__/mini-suite.jsonl', import.meta.url).pathname;
const openRouterList = new URL('../providers/__fixtures__/openrouter-models.json', import.meta.url).pathname;
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

async function localServer() {
  const s = await startOpenAICompatibleServer({ reply: () => ({ status: 200, body: openAIChatBody({ text: 'Aetópaigh', usage: { prompt_tokens: 10, completion_tokens: 5 } }) }) });
  servers.push(s);
  return s;
}

async function reportOf(cwd: string, runId: string, format = 'json') {
  const r = await runCli(['report', runId, '--format', format, '-o', '-'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('costs of a model served away from its vendor', () => {
  it('a vendor model name behind a local base URL is not charged the list price: unknown, and the report says why', async () => {
    const server = await localServer();
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-price-'));
    const r = await runCli(['run', suite, '-m', 'openai:gpt-4.1-mini', '--repeats', '1', '--base-url', server.baseURL], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const why = `openai:gpt-4.1-mini is served from ${server.baseURL}, not api.openai.com: the vendor's list price does not apply there`;
    expect(r.stderr).toContain(`warning: ${why}`);
    expect(r.stderr).toMatch(/^openai:gpt-4\.1-mini\s+grammar_forms\s.*\sunknown$/m);
    const d = JSON.parse(await reportOf(cwd, r.stdout.trim())) as ReportData;
    expect(d.models[0]).toMatchObject({ priced: false, costUsd: null });
    expect(d.models[0]!.unpricedReason).toContain(why);
    expect(d.totalCostUsd).toBe(0);
    expect(await reportOf(cwd, r.stdout.trim(), 'html')).toContain(why.replace("'", '&#39;'));
    // paideia runs agrees: the list price the calls were charged is not counted
    const [listed] = JSON.parse((await runCli(['runs', '--format', 'json'], { cwd })).stdout) as Array<{ costUsd: number; costIncomplete: boolean }>;
    expect(listed).toMatchObject({ costUsd: 0, costIncomplete: true });
  });

  it("--prices reads OpenRouter's models list; the prices are stored with the run and outlive the file", async () => {
    const server = await localServer();
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-price-'));
    const prices = join(cwd, 'openrouter-models.json');
    copyFileSync(openRouterList, prices);
    const r = await runCli(['run', suite, '-m', 'openai:openai/gpt-4.1-mini', '--repeats', '1', '--base-url', server.baseURL, '--prices', prices], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/warning/);
    rmSync(prices);
    const d = JSON.parse(await reportOf(cwd, r.stdout.trim())) as ReportData;
    expect(d.prices.source).toBe(prices);
    // 5 calls x (10 x $0.4/M + 5 x $1.6/M)
    expect(d.models[0]!.costUsd).toBeCloseTo(5 * (10 * 0.4 + 5 * 1.6) / 1e6, 12);
    expect(d.models[0]!.unpricedReason).toBeNull();
  });
});
