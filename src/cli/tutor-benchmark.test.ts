import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatResult } from '../core/index.js';
import { lastUserText, openAIChatBody, startOpenAICompatibleServer, type FakeServer, type RecordedRequest } from '../providers/testing/fake-servers.js';
import type { ReportData } from '../report/index.js';
import { loadItems } from '../suites/load.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { runCli } from './testing/run-cli.js';

// The shipped public samples, end to end through the real CLI.
const samples = fileURLToPath(new URL('../../data/samples', import.meta.url));
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const workdir = () => mkdtempSync(join(tmpdir(), 'paideia-tutor-'));

async function reportJson(cwd: string, runId: string, store: string): Promise<ReportData> {
  const r = await runCli(['report', runId, '--format', 'json', '--out', 'r.json', '--store', store], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(readFileSync(join(cwd, 'r.json'), 'utf8')) as ReportData;
}

describe('baseline:gold on the shipped samples', () => {
  it('scores 100% on every rule-marked test (and a perfect chrF++ on the translation tests)', async () => {
    const cwd = workdir();
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const r = await runCli(['run', samples, '-m', 'baseline:gold', '--repeats', '1', '--store', store], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const report = await reportJson(cwd, r.stdout.trim(), store);
    for (const test of ['grammar_forms', 'exercises', 'tutor_accuracy', 'translation', 'round_trip']) {
      const cell = report.cells.find(c => c.model === 'baseline:gold' && c.test === test);
      expect(cell, test).toBeDefined();
      expect([cell!.mean, cell!.unscored, cell!.failed], test).toEqual([1, 0, 0]);
    }
    expect(report.cells.find(c => c.test === 'tutor_accuracy')!.n).toBe(40); // Irish and English
  });
});

/** What a right answer and a "no change" answer to each sample request are, by the request's last user message. */
function answerKey(): Map<string, { test: string; id: string; gold: string; copy: string; options?: string[] }> {
  const key = new Map<string, { test: string; id: string; gold: string; copy: string; options?: string[] }>();
  for (const { item } of loadItems([samples])) {
    const test = BUILT_IN_TESTS.get(item.test)!;
    const first = test.render(item, [])!;
    const add = (r: typeof first) => {
      const content = r.messages.filter(m => m.role === 'user').at(-1)!.content;
      key.set(content, { test: item.test, id: item.id, gold: r.hints!.gold!, copy: r.hints!.copy!, ...(r.hints!.options ? { options: r.hints!.options } : {}) });
    };
    add(first);
    const second = test.render(item, [{ text: first.hints!.gold!, warnings: [] } satisfies ChatResult]);
    if (second) add(second);
  }
  return key;
}

const weight = (id: string) => [...id].reduce((a, c) => a + c.charCodeAt(0), 0);

function completion(content: string, model: string) {
  return { body: openAIChatBody({ text: content, model, usage: { prompt_tokens: 100, completion_tokens: 20 } }) };
}

/**
 * One local OpenAI-compatible server for every model of the run, by the `model` field:
 * - mistral-small: right on everything except every third grammar form; explains, with a wrong
 *   explanation on some tutor items ("WRONG") and a vague one on others;
 * - qwen-tutor: copies on translation tests, picks the first option of exercises, right on the
 *   tutor test with terse explanations;
 * - gpt-4o-mini: right on the tutor test (same family as a judge: no explanation score);
 * - judges gpt-4.1-mini (openai) and claude-sonnet-4 (anthropic): fail "WRONG"; claude also fails "vague".
 */
function reply(key: ReturnType<typeof answerKey>) {
  return (req: RecordedRequest) => {
    const body = req.body as { model: string };
    const text = lastUserText(req);
    if (body.model === 'gpt-4.1-mini' || body.model === 'claude-sonnet-4') {
      const explanation = /<<<\n([\s\S]*)\n>>>/.exec(text)?.[1] ?? '';
      const fails = explanation.includes('WRONG') || (body.model === 'claude-sonnet-4' && explanation.includes('vague'));
      return completion(JSON.stringify({ pass: !fails, reason: fails ? 'misleading' : 'clear and correct' }), body.model);
    }
    const k = key.get(text);
    // qwen's round trip: its pivot was the source itself, so the way back is a request no item has.
    if (!k && text.startsWith('Translate this')) return completion(text.slice(text.indexOf('\n\n') + 2), body.model);
    if (!k) return { status: 400, body: { error: { message: `test server: unknown request ${text.slice(0, 60)}` } } };
    const w = weight(k.id);
    const tutor = (explanation: string) => JSON.stringify({ ...(JSON.parse(k.gold) as object), explanation });
    let answer: string;
    if (body.model === 'mistral-small') {
      if (k.test === 'tutor_accuracy') answer = tutor(w % 5 === 0 ? 'WRONG: the verb is fine.' : w % 5 === 1 ? 'It is vague here.' : `The form in "${k.id}" must agree.`);
      else if (k.test === 'grammar_forms' && w % 3 === 0) answer = k.copy;
      else answer = k.gold;
    } else if (body.model === 'qwen-tutor') {
      if (k.test === 'tutor_accuracy') answer = tutor('Agreement.');
      else if (k.test === 'exercises') answer = k.options![0]!;
      else if (k.test === 'translation' || k.test === 'round_trip') answer = k.copy;
      else answer = k.gold;
    } else {
      answer = k.test === 'tutor_accuracy' ? tutor('Agreement again.') : k.gold;
    }
    return completion(answer, body.model);
  };
}

describe('paideia run on the shipped samples with a served model and two judges', () => {
  it('produces scores, comparisons, explanation scores with agreement, consistency and costs; re-runs, rescore and report call nothing', async () => {
    const server = await startOpenAICompatibleServer({ reply: reply(answerKey()) });
    servers.push(server);
    const cwd = workdir();
    const store = `sqlite:${join(cwd, 'p.db')}`;
    const prices = join(cwd, 'prices.json');
    const price = { input: 1, output: 2 };
    writeFileSync(prices, JSON.stringify({
      source: 'test', date: '2026-11-29',
      models: { 'openai:mistral-small': price, 'openai:qwen-tutor': price, 'openai:gpt-4o-mini': price, 'openai:gpt-4.1-mini': price, 'openai:claude-sonnet-4': price, 'baseline:*': { input: 0, output: 0 } },
    }));
    const args = [
      'run', samples, '-m', 'mistral=openai:mistral-small', '-m', 'qwen=openai:qwen-tutor', '-m', 'gpt=openai:gpt-4o-mini',
      '-m', 'baseline:copy', '-m', 'baseline:gold', '--repeats', '2', '--base-url', server.baseURL, '--prices', prices,
      '--judge', 'ja=openai:gpt-4.1-mini', '--judge', 'jb=openai:claude-sonnet-4', '--store', store, '--report', 'report.html',
    ];
    const r = await runCli(args, { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/explanations \(judges ja, jb\): \d+ judged/);
    expect(r.stderr).not.toMatch(/MaxListenersExceeded/);
    const runId = r.stdout.trim();
    const calls = server.requests.length;
    const judgeCalls = server.requests.filter(q => ['gpt-4.1-mini', 'claude-sonnet-4'].includes((q.body as { model: string }).model)).length;
    // mistral and qwen: 40 tutor items, judged by both judges (the two repeats of an item ask the
    // same, so they share one call); gpt is of a judge's family and is not judged.
    expect(judgeCalls).toBe(2 * 40 * 2);
    const report = await reportJson(cwd, runId, store);

    // Scores: every model on every test, with n and intervals; baselines labelled.
    const tests = ['exercises', 'grammar_forms', 'round_trip', 'translation', 'tutor_accuracy'];
    expect(report.tests.map(t => t.name)).toEqual(tests);
    for (const m of ['mistral', 'qwen', 'gpt', 'baseline:gold']) {
      for (const t of tests) {
        const c = report.cells.find(x => x.model === m && x.test === t)!;
        expect(c.n, `${m} ${t}`).toBeGreaterThan(0);
        expect(c.low, `${m} ${t}`).not.toBeNull();
        expect(c.consistency, `${m} ${t}`).not.toBeNull();
      }
    }
    expect(report.models.filter(m => m.isBaseline).map(m => m.alias)).toEqual(['baseline:copy', 'baseline:gold']);
    const mistralForms = report.cells.find(c => c.model === 'mistral' && c.test === 'grammar_forms')!;
    expect(mistralForms.mean).toBeGreaterThan(0.4);
    expect(mistralForms.mean).toBeLessThan(1);

    // Comparisons: models under test pairwise, each against copy; never the gold baseline.
    const pairs = new Set(report.comparisons.map(c => `${c.a}|${c.b}`));
    expect([...pairs].sort()).toEqual(['gpt|baseline:copy', 'mistral|baseline:copy', 'mistral|gpt', 'mistral|qwen', 'qwen|baseline:copy', 'qwen|gpt'].sort());
    const tr = report.comparisons.find(c => c.test === 'translation' && c.a === 'mistral' && c.b === 'qwen')!;
    expect(tr.n).toBe(20);
    expect(tr.difference).toBeGreaterThan(0.5);
    expect(tr.low).toBeGreaterThan(0);
    expect(tr.warning).toBeNull();
    const same = report.comparisons.find(c => c.test === 'tutor_accuracy' && c.a === 'mistral' && c.b === 'qwen')!;
    expect(same).toMatchObject({ n: 40, difference: 0, intervalsOverlap: true, warning: 'the intervals of mistral and qwen overlap: this table does not show which is better' });

    // Explanations apart from the headline, with agreement and kappa.
    const x = report.explanations!;
    expect(x.judges).toEqual([{ alias: 'ja', spec: 'openai:gpt-4.1-mini', family: 'openai' }, { alias: 'jb', spec: 'openai:claude-sonnet-4', family: 'anthropic' }]);
    expect(x.scorer.name).toBe('explanation-dual-judge');
    const mistral = x.cells.find(c => c.model === 'mistral')!;
    expect(mistral.counts.judged).toBe(80);
    expect(mistral.mean).toBeGreaterThan(0);
    expect(mistral.mean).toBeLessThan(1);
    expect(x.cells.find(c => c.model === 'qwen')!.mean).toBe(1);
    const gpt = x.cells.find(c => c.model === 'gpt')!;
    expect([gpt.mean, gpt.counts['not-applicable']]).toEqual([null, 80]);
    expect(gpt.note).toMatch(/same|family "openai"/);
    expect(x.agreement.n).toBe(160);
    expect(x.agreement.table.onlyFirst).toBe(mistral.counts.judged - mistral.passed - x.agreement.table.bothFail); // the "vague" ones
    expect(x.agreement.agreement).toBeLessThan(1);
    expect(typeof x.agreement.kappa).toBe('number');
    expect(report.cells.find(c => c.model === 'mistral' && c.test === 'tutor_accuracy')!.mean).toBe(1); // headline unaffected

    // Costs: every call priced, judge calls included in the run total; cost per correct answer.
    const modelCost = report.models.reduce((a, m) => a + (m.costUsd ?? 0), 0);
    expect(x.costUsd).toBeCloseTo(judgeCalls * (100 * 1 + 20 * 2) / 1e6, 10);
    expect(report.totalCostUsd).toBeCloseTo(modelCost + x.costUsd, 10);
    expect(report.totalCostUsd).toBeCloseTo(calls * (100 * 1 + 20 * 2) / 1e6, 10);
    expect(report.models.find(m => m.alias === 'mistral')!.costPerCorrect).toBeGreaterThan(0);

    const html = readFileSync(join(cwd, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Explanations (tutor_accuracy)</h2>');
    expect(html).toContain('<h2>Comparisons</h2>');
    expect(html).toContain('<h2>Consistency</h2>');

    // The same command again resumes the run and asks nobody anything; so do rescore and report.
    const again = await runCli(args, { cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(runId);
    expect(server.requests.length).toBe(calls);
    const rescored = await runCli(['rescore', runId, '--store', store], { cwd });
    expect(rescored.code, rescored.stderr).toBe(0);
    const after = await reportJson(cwd, runId, store);
    expect(server.requests.length).toBe(calls);
    expect(after.explanations).toEqual(report.explanations);
    expect(after.cells).toEqual(report.cells);
    expect(after.comparisons).toEqual(report.comparisons);
  }, 180_000);

  it('refuses a cost cap when a judge has no price, before any call', async () => {
    const server = await startOpenAICompatibleServer({ reply: reply(answerKey()) });
    servers.push(server);
    const cwd = workdir();
    const prices = join(cwd, 'prices.json');
    writeFileSync(prices, JSON.stringify({ source: 'test', date: '2026-11-29', models: { 'openai:mistral-small': { input: 1, output: 1 }, 'openai:gpt-4.1-mini': { input: 1, output: 1 } } }));
    const r = await runCli(['run', samples, '-m', 'openai:mistral-small', '--base-url', server.baseURL, '--prices', prices, '--cost-cap', '5',
      '--judge', 'ja=openai:gpt-4.1-mini', '--judge', 'jb=openai:claude-unpriced'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "--cost-cap": no price for openai:claude-unpriced/);
    expect(server.requests).toHaveLength(0);
  });

  it('exits 2 on judges of one family, naming the flag', async () => {
    const r = await runCli(['run', samples, '-m', 'baseline:gold', '--judge', 'a=openai:gpt-4.1', '--judge', 'b=openai:o3'], { cwd: workdir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "--judge".*both judges are of the family "openai"/);
  });
});
