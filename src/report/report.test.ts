import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseModelSpec, type ChatModel, type ChatRequest } from '../core/index.js';
import { runSuite } from '../engine/run-suite.js';
import { createBaselineModel } from '../providers/baseline/index.js';
import { createMockModel } from '../providers/testing/mock-model.js';
import { builtInScorers } from '../scoring/builtins.js';
import { cohenKappa, pairedBootstrap } from '../stats/index.js';
import { openStore } from '../store/index.js';
import { judgeExplanations, judgingConfig, saveJudgingConfig } from '../suites/judging/index.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { buildReportData, renderHtml, renderMarkdown } from './index.js';

const english = fileURLToPath(new URL('../../data/samples/english', import.meta.url));
const prices = { source: 'test', date: '2026-11-29', models: { 'baseline:*': { input: 0, output: 0 }, 'openai:good': { input: 1000, output: 1000 } } };
const userText = (r: ChatRequest) => r.messages.filter(m => m.role === 'user').map(m => m.content).join('\n');
const sentenceOf = (r: ChatRequest) => /Learner's sentence[^\n]*\n(.*)/.exec(userText(r))?.[1] ?? '';

/** Answers with the gold hint plus an explanation; `wrongWhen` turns chosen requests into the copy answer. */
function model(wrongWhen: (r: ChatRequest) => boolean = () => false): ChatModel {
  return createMockModel(r => {
    const hint = wrongWhen(r) ? r.hints!.copy! : r.hints!.gold!;
    if (!hint.startsWith('{')) return hint;
    return JSON.stringify({ ...JSON.parse(hint), explanation: `Because of "${sentenceOf(r)}".` });
  }, { provider: 'openai' });
}

async function run(suites: string[], models: Record<string, ChatModel>, repeats = 2) {
  const store = await openStore('sqlite::memory:');
  const specs = Object.keys(models).map(m => parseModelSpec(m));
  const byAlias = new Map(specs.map((s, i) => [s.alias, Object.values(models)[i]!]));
  const { run } = await runSuite({
    store, suites, models: specs, repeats, seed: 11, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(),
    createModel: s => byAlias.get(s.alias)!, prices, concurrency: () => 4,
  });
  return { store, runId: run.id };
}

describe('pairwise comparisons', () => {
  it('compares models under test pairwise and each against the copy baseline, with a paired bootstrap and overlap warnings', async () => {
    const { store, runId } = await run([english], {
      'good=openai:good': model(),
      'twin=openai:twin': model(),
      // Wrong on every other exercise item, by content (so repeats agree).
      'half=openai:half': model(r => !r.hints!.gold!.startsWith('{') && userText(r).length % 2 === 0),
      'baseline:copy': createBaselineModel('copy'),
      'baseline:gold': createBaselineModel('gold'),
    });
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    const pairs = d.comparisons.filter(c => c.test === 'exercises').map(c => `${c.a}|${c.b}|${c.kind}`);
    // Baselines are in the tables but compared only as the copy floor; gold is never compared.
    expect(pairs).toEqual(['good|twin|models', 'good|half|models', 'twin|half|models', 'good|baseline:copy|vs-copy', 'twin|baseline:copy|vs-copy', 'half|baseline:copy|vs-copy']);
    expect(d.cells.some(c => c.model === 'baseline:gold')).toBe(true);
    const twins = d.comparisons.find(c => c.test === 'exercises' && c.a === 'good' && c.b === 'twin')!;
    expect(twins).toMatchObject({ n: 20, difference: 0, intervalsOverlap: true, warning: 'the intervals of good and twin overlap: this table does not show which is better' });
    const half = d.comparisons.find(c => c.test === 'exercises' && c.a === 'good' && c.b === 'half')!;
    expect(half.n).toBe(20);
    expect(half.difference).toBeGreaterThan(0);
    // Against the copy floor on the tutor test (copy leaves every sentence as it is).
    const vsCopy = d.comparisons.find(c => c.test === 'tutor_accuracy' && c.a === 'good' && c.kind === 'vs-copy')!;
    expect(vsCopy.n).toBe(20);
    // copy is right on the 7 error-free sentences only: good - copy = 13/20, and the two intervals are apart.
    expect(vsCopy.difference).toBeCloseTo(13 / 20, 12);
    expect(vsCopy.intervalsOverlap).toBe(false);
    expect(vsCopy.warning).toBeNull();
    const direct = pairedBootstrap(Array(20).fill(1), Array.from({ length: 20 }, (_, i) => (i < 7 ? 1 : 0)), { resamples: 2000, seed: d.interval.seed, level: 0.95 });
    expect(direct.difference).toBeCloseTo(vsCopy.difference!, 12);
    expect(d.interval).toMatchObject({ resamples: 2000, seed: 11 });
    // Shown in both renderings, warning included.
    const md = renderMarkdown(d);
    expect(md).toContain('## Comparisons');
    expect(md).toContain('the intervals of good and twin overlap: this table does not show which is better');
    expect(renderHtml(d)).toContain('the intervals of good and twin overlap: this table does not show which is better');
  });

  it('shows the consistency figure and cost per correct answer', async () => {
    const { store, runId } = await run([join(english, 'exercises.jsonl')], {
      // Flips on the second repeat of some items, so consistency is below 100%.
      'good=openai:good': model(r => r.params.seed !== undefined && r.params.seed % 3 === 0),
      'baseline:gold': createBaselineModel('gold'),
    }, 3);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    const good = d.cells.find(c => c.model === 'good')!;
    const gold = d.cells.find(c => c.model === 'baseline:gold')!;
    expect(gold.consistency).toBe(1);
    expect(good.consistency).not.toBeNull();
    expect(good.consistency!).toBeLessThan(1);
    const html = renderHtml(d);
    expect(html).toContain('<h2>Consistency</h2>');
    expect(html).toContain(`${(good.consistency! * 100).toFixed(1)}%`);
    expect(renderMarkdown(d)).toContain('## Consistency');
    const m = d.models.find(x => x.alias === 'good')!;
    expect(m.costUsd).toBeCloseTo(60 * 2 * 1000 / 1e6, 12); // 60 calls x (1 + 1 tokens) at $1000/M
    expect(m.costPerCorrect).toBeCloseTo(m.costUsd / (good.mean! * good.n), 12);
  });
});

describe('explanation scores in the report', () => {
  it('reports the explanation score apart from the headline, with the judges\' agreement and Cohen\'s kappa', async () => {
    const { store, runId } = await run([join(english, 'tutor_accuracy.jsonl')], {
      'tutor=openai:mistral-small': model(),
      'same=openai:gpt-4.1-mini': model(),
      'baseline:gold': createBaselineModel('gold'),
    });
    const config = judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4']);
    await saveJudgingConfig(store, runId, config);
    // a fails explanations of sentences with "Donna" or "The men"; b fails "Donna" and "Cheryl": they disagree on two items.
    const verdict = (fails: string[]) => createMockModel(r => JSON.stringify({ pass: !fails.some(f => sentenceOf(r).startsWith(f)), reason: 'r' }));
    await judgeExplanations({
      store, runId, config, tests: BUILT_IN_TESTS, prices,
      models: new Map([['a', verdict(['Donna', 'The men'])], ['b', verdict(['Donna', 'Cheryl'])]]),
    });
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    const x = d.explanations!;
    expect(x.scorer.name).toBe('explanation-dual-judge');
    expect(x.judges.map(j => j.family)).toEqual(['openai', 'anthropic']);
    const tutor = x.cells.find(c => c.model === 'tutor')!;
    // 20 items; Donna x2 items fail both, "The men" fails a only, Cheryl fails b only: 16 pass.
    expect([tutor.n, tutor.mean, tutor.counts.judged, tutor.passed]).toEqual([20, 16 / 20, 40, 32]);
    expect(tutor.low).not.toBeNull();
    const same = x.cells.find(c => c.model === 'same')!;
    expect([same.n, same.mean, same.counts['not-applicable']]).toEqual([0, null, 40]);
    expect(same.note).toMatch(/not applicable: the model is of the family "openai", as judge a/);
    expect(x.cells.find(c => c.model === 'baseline:gold')!.note).toBe('no explanations given');
    // Agreement over the 40 judged explanations: both fail 4 (Donna x2 items x2 repeats), only b passes 2, only a passes 2.
    expect(x.agreement.table).toEqual({ bothPass: 32, bothFail: 4, onlyFirst: 2, onlySecond: 2 });
    expect(x.agreement.n).toBe(40);
    expect(x.agreement.agreement).toBeCloseTo(36 / 40, 12);
    const a = [...Array(32).fill('pass'), ...Array(4).fill('fail'), 'pass', 'pass', 'fail', 'fail'];
    const b = [...Array(32).fill('pass'), ...Array(4).fill('fail'), 'fail', 'fail', 'pass', 'pass'];
    expect(x.agreement.kappa).toBeCloseTo(cohenKappa(a, b).kappa, 12);
    // The headline score is untouched by the judges.
    expect(d.cells.find(c => c.model === 'tutor' && c.test === 'tutor_accuracy')!.mean).toBe(1);
    expect(d.tests.find(t => t.name === 'tutor_accuracy')!.scorer?.name).toBe('tutor-edit');
    const md = renderMarkdown(d);
    expect(md).toContain('## Explanations (tutor_accuracy)');
    expect(md).toMatch(/Cohen's kappa 0\.\d{3}/);
    expect(renderHtml(d)).toContain("Judges' agreement: <b>90.0%</b>");
  });
});

describe('private items', () => {
  it('never appear in HTML, Markdown or JSON outputs, failure examples and explanation examples included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-private-'));
    const lines = readFileSync(join(english, 'tutor_accuracy.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l) as Record<string, unknown>);
    const secret = 'Zebedee quietly inspected those secret ledger.';
    const priv = { ...lines[1]!, id: 'private:secret-1', visibility: 'private', contamination: 'private', input: { sentence: secret, language: 'en' }, accepted: ['Zebedee quietly inspected that secret ledger.'], answer: { has_error: true, wrong_span: 'those', correction: 'that', corrected_sentence: 'Zebedee quietly inspected that secret ledger.' } };
    const pub = lines[5]!; // The men could find these book.
    const file = join(dir, 'suite.jsonl');
    writeFileSync(file, [JSON.stringify(priv), JSON.stringify(pub)].join('\n'));
    // The model gets both wrong (copies the sentence) and explains itself in words that quote it.
    const { store, runId } = await run([file], { 'tutor=openai:mistral-small': model(() => true), 'baseline:copy': createBaselineModel('copy') });
    const config = judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4']);
    await saveJudgingConfig(store, runId, config);
    const failing = createMockModel(() => JSON.stringify({ pass: false, reason: 'wrong' }));
    await judgeExplanations({ store, runId, config, tests: BUILT_IN_TESTS, prices, models: new Map([['a', failing], ['b', failing]]) });
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    expect(d.failures.map(f => f.itemId)).toContain(pub.id);
    expect(d.explanations!.examples.map(e => e.itemId)).toEqual([pub.id]);
    for (const text of [renderHtml(d), renderMarkdown(d), JSON.stringify(d)]) {
      expect(text).not.toContain('Zebedee');
      expect(text).not.toContain('secret ledger');
      expect(text).not.toContain('private:secret-1');
      expect(text).toContain(String(pub.id));
    }
  });
});
