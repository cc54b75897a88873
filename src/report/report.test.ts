import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { parseModelSpec, ProviderCallError, type ChatModel, type ChatRequest } from '../core/index.js';
import { runSuite } from '../suites/run.js';
import { createBaselineModel } from '../providers/baseline/index.js';
import { createMockModel } from '../providers/testing/mock-model.js';
import { builtInScorers } from '../scoring/builtins.js';
import { openStore } from '../store/index.js';
import { judgingConfig, type JudgingConfig } from '../suites/judging/index.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { clipJson, clipText, privateTextScrubber } from './clip.js';
import { buildReportData, buildSummaryData, renderHtml, renderMarkdown } from './index.js';

const english = fileURLToPath(new URL('../../data/samples/english', import.meta.url));
const irish = fileURLToPath(new URL('../../data/samples/irish', import.meta.url));
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

async function run(suites: string[], models: Record<string, ChatModel>, repeats = 2, o: { store?: Awaited<ReturnType<typeof openStore>>; retryErrors?: boolean } = {}) {
  const store = o.store ?? await openStore('sqlite::memory:');
  const specs = Object.keys(models).map(m => parseModelSpec(m));
  const byAlias = new Map(specs.map((s, i) => [s.alias, Object.values(models)[i]!]));
  const { run } = await runSuite({
    store, suites, models: specs, repeats, seed: 11, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(),
    createModel: s => byAlias.get(s.alias)!, prices, concurrency: () => 4, retryErrors: o.retryErrors ?? false,
  });
  modelsOf.set(run.id, byAlias);
  return { store, runId: run.id };
}

const modelsOf = new Map<string, Map<string, ChatModel>>();

/** Resume a run with two explanation judges: their trials run through the same engine. */
async function judgeRun(store: Awaited<ReturnType<typeof openStore>>, runId: string, config: JudgingConfig, judges: Map<string, ChatModel>) {
  await runSuite({
    store, suites: [], models: [], repeats: 1, seed: 11, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), prices,
    resumeRunId: runId, judging: config, createModel: s => judges.get(s.alias) ?? modelsOf.get(runId)!.get(s.alias)!, concurrency: () => 4,
  });
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
    expect(d.interval).toMatchObject({ resamples: 2000, seed: 11 });
    // Shown in both renderings, warning included.
    const md = renderMarkdown(d);
    expect(md).toContain('## Comparisons');
    expect(md).toContain('the intervals of good and twin overlap: this table does not show which is better');
    expect(renderHtml(d)).toContain('the intervals of good and twin overlap: this table does not show which is better');
  });

  it('the summary a run ends with has the cells and totals of its report, without its groups and comparisons', async () => {
    const { store, runId } = await run([english], {
      'good=openai:good': model(),
      'half=openai:half': model(r => !r.hints!.gold!.startsWith('{') && userText(r).length % 2 === 0),
      'baseline:copy': createBaselineModel('copy'),
    });
    const whole = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    const summary = await buildSummaryData(store, runId, { tests: BUILT_IN_TESTS });
    // The report of this run has groups and comparisons: what the summary leaves out is real work.
    expect(whole.groups.length).toBeGreaterThan(0);
    expect(whole.comparisons.length).toBeGreaterThan(0);
    expect(summary.cells).toEqual(whole.cells);
    expect(summary.models).toEqual(whole.models);
    expect(summary.rows).toEqual(whole.rows);
    expect([summary.totalCostUsd, summary.unpriced, summary.interval]).toEqual([whole.totalCostUsd, whole.unpriced, whole.interval]);
    // No group intervals were computed for it.
    expect((summary as { groups?: unknown[] }).groups ?? []).toEqual([]);
  });

  it('shows the consistency figure and cost per correct answer', async () => {
    // Wrong on the first call of each item's prompt and right on its two other repeats: every item
    // scores 2/3 and none is consistent.
    const seen = new Set<string>();
    const firstWrong = (r: ChatRequest) => !seen.has(userText(r)) && Boolean(seen.add(userText(r)));
    const { store, runId } = await run([join(english, 'exercises.jsonl')], {
      'good=openai:good': model(firstWrong),
      'baseline:gold': createBaselineModel('gold'),
    }, 3);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    const good = d.cells.find(c => c.model === 'good')!;
    const gold = d.cells.find(c => c.model === 'baseline:gold')!;
    expect(gold.consistency).toBe(1);
    expect(good.consistency).toBe(0);
    expect(good.mean).toBeCloseTo(2 / 3, 12);
    const html = renderHtml(d);
    expect(html).toContain('<h2>Consistency</h2>');
    const md = renderMarkdown(d);
    expect(md).toContain('## Consistency');
    // Consistency row: good 0 of 20 items consistent, gold 20 of 20.
    expect(md).toContain('| exercises | 0.0 | 100.0 |');
    const m = d.models.find(x => x.alias === 'good')!;
    // 20 items x 3 repeats = 60 calls, each 1 input + 1 output token at $1000 per million: 60 x 2 x 1000 / 1e6 = $0.12.
    expect(m.costUsd).toBeCloseTo(0.12, 12);
    // Summed item scores: 20 items x 2/3 = 40/3 correct answers; $0.12 / (40/3) = $0.009 per correct answer.
    expect(m.costPerCorrect).toBeCloseTo(0.009, 12);
    expect(md).toContain('| good | 0.1200 | 0.00900 | 0 |');
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
    // a fails explanations of sentences with "Donna" or "The men"; b fails "Donna" and "Cheryl": they disagree on two items.
    const verdict = (fails: string[]) => createMockModel(r => JSON.stringify({ pass: !fails.some(f => sentenceOf(r).startsWith(f)), reason: 'r' }));
    await judgeRun(store, runId, config, new Map([['a', verdict(['Donna', 'The men'])], ['b', verdict(['Donna', 'Cheryl'])]]));
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
    // Cohen's kappa by hand: p_o = 36/40 = 0.9; each judge passes 34 of 40 (0.85), so
    // p_e = 0.85^2 + 0.15^2 = 0.745; kappa = (0.9 - 0.745) / (1 - 0.745) = 0.155 / 0.255 = 31/51.
    expect(x.agreement.kappa).toBeCloseTo(31 / 51, 12);
    // The headline score is untouched by the judges.
    expect(d.cells.find(c => c.model === 'tutor' && c.test === 'tutor_accuracy')!.mean).toBe(1);
    expect(d.tests.find(t => t.name === 'tutor_accuracy')!.scorer?.name).toBe('tutor-edit');
    const md = renderMarkdown(d);
    expect(md).toContain('## Explanations (tutor_accuracy)');
    expect(md).toContain("Cohen's kappa 0.608"); // 31/51 = 0.60784...
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
    const failing = createMockModel(() => JSON.stringify({ pass: false, reason: 'wrong' }));
    await judgeRun(store, runId, config, new Map([['a', failing], ['b', failing]]));
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

describe('costs of unpriced models', () => {
  it('shows an unpriced model\'s cost as unknown (null in JSON), never $0, and says so', async () => {
    // prices has openai:good but not openai:twin.
    const { store, runId } = await run([join(english, 'exercises.jsonl')], {
      'good=openai:good': model(), 'twin=openai:twin': model(), 'baseline:copy': createBaselineModel('copy'),
    }, 1);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    expect(d.models.find(m => m.alias === 'twin')).toMatchObject({ priced: false, costUsd: null, costPerCorrect: null });
    expect(d.models.find(m => m.alias === 'good')).toMatchObject({ priced: true, costUsd: expect.any(Number) });
    expect(d.models.find(m => m.alias === 'baseline:copy')).toMatchObject({ priced: true, costUsd: 0 });
    expect(d.cells.find(c => c.model === 'twin')!.costUsd).toBeNull();
    expect(d.unpriced).toEqual(['openai:twin']);
    const json = JSON.parse(JSON.stringify(d)) as typeof d;
    expect(json.models.find(m => m.alias === 'twin')!.costUsd).toBeNull();
    const md = renderMarkdown(d);
    expect(md).toContain('| twin | unknown | unknown | 0 |');
    expect(md).toMatch(/No price in the run's price table for openai:twin: their cost is unknown \(not \$0\)/);
    expect(md).toMatch(/\| \*\*run total\*\* \| [\d.]+ \+ unknown \|/);
    const html = renderHtml(d);
    const twinRow = /<tr><td>twin<\/td>.*?<\/tr>/.exec(html)![0];
    expect(twinRow).not.toContain('$0');
    expect(twinRow).toContain('>unknown</span>');
    expect(html).toContain('No price in the run\'s price table for <code>openai:twin</code>');
  });
});

describe('why trials failed', () => {
  const serverMessage = 'Rate limited <script>alert(1)</script> see [docs](javascript:alert(1)) ![x](http://evil/x.png)';
  /** Fails with 429 on "himself" exercises and 500 on "herself" ones (by content, so repeats agree); else the gold answer. */
  const flaky = () => createMockModel(r => {
    const text = userText(r);
    if (text.includes('himself')) throw new ProviderCallError({ message: serverMessage, kind: 'http', statusCode: 429, isRetryable: true });
    if (text.includes('herself')) throw new ProviderCallError({ message: 'upstream exploded', kind: 'http', statusCode: 500, isRetryable: true });
    return r.hints!.gold!;
  }, { provider: 'openai' });

  it('lists the stored errors of failed trials grouped by message, escaped, in HTML, Markdown and JSON', async () => {
    const { store, runId } = await run([join(english, 'exercises.jsonl')], { 'good=openai:good': flaky(), 'baseline:gold': createBaselineModel('gold') });
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    const calls = await store.listCalls(runId);
    const trials = await store.listTrials(runId);
    const failedTrials = new Set(calls.filter(c => c.status === 'error').map(c => c.trialId));
    const limited = calls.filter(c => c.error?.statusCode === 429).length;
    const exploded = calls.filter(c => c.error?.statusCode === 500).length;
    expect(limited).toBeGreaterThan(0);
    expect(exploded).toBeGreaterThan(0);
    expect(d.trialFailures).toEqual([
      { model: 'good', test: 'exercises', message: serverMessage, kind: 'http', statusCode: 429, count: limited, exampleTrialId: expect.any(String), messageLength: serverMessage.length, truncated: false },
      { model: 'good', test: 'exercises', message: 'upstream exploded', kind: 'http', statusCode: 500, count: exploded, exampleTrialId: expect.any(String), messageLength: 17, truncated: false },
    ].sort((a, b) => b.count - a.count));
    for (const f of d.trialFailures) expect(failedTrials.has(f.exampleTrialId) && trials.some(t => t.id === f.exampleTrialId && t.modelAlias === 'good')).toBe(true);
    expect(d.cells.find(c => c.model === 'good')!.failed).toBe(limited + exploded);

    const html = renderHtml(d);
    expect(html).toContain('<h2>Failures</h2>');
    expect(html).toContain('Rate limited &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toMatch(/<td>good<\/td><td>exercises<\/td><td>\d+<\/td><td>429<\/td><td>http<\/td>/);
    const md = renderMarkdown(d);
    expect(md).toContain('## Failures');
    expect(md).toContain('| good | exercises | ' + limited + ' | 429 | http | Rate limited &lt;script&gt;alert(1)&lt;/script&gt; see \\[docs\\](javascript:alert(1)) !\\[x\\](http://evil/x.png) |');
    expect(md).toContain('| good | exercises | ' + exploded + ' | 500 | http | upstream exploded |');
  });

  it('counts only the newest record of each step: a trial that failed and then succeeded is not listed', async () => {
    const { store, runId } = await run([join(english, 'exercises.jsonl')], { 'good=openai:good': flaky() }, 1);
    expect((await buildReportData(store, runId, { tests: BUILT_IN_TESTS })).trialFailures.length).toBe(2);
    // The same run again with --retry-errors and a healthy model: the stored errors stay in the calls table but are superseded.
    await run([join(english, 'exercises.jsonl')], { 'good=openai:good': model() }, 1, { store, retryErrors: true });
    expect((await store.listCalls(runId)).some(c => c.status === 'error')).toBe(true);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    expect(d.trialFailures).toEqual([]);
    expect(renderHtml(d)).toContain('No trial failed.');
    expect(renderMarkdown(d)).toContain('No trial failed.');
  });

  it('keeps private items\' text out of failure messages that quote the request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-private-'));
    const lines = readFileSync(join(english, 'tutor_accuracy.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l) as Record<string, unknown>);
    const secret = 'Zebedee quietly inspected those secret ledger.';
    const priv = { ...lines[1]!, id: 'private:secret-1', visibility: 'private', contamination: 'private', input: { sentence: secret, language: 'en' }, accepted: ['Zebedee quietly inspected that secret ledger.'], answer: { has_error: true, wrong_span: 'those', correction: 'that', corrected_sentence: 'Zebedee quietly inspected that secret ledger.' } };
    const file = join(dir, 'suite.jsonl');
    writeFileSync(file, JSON.stringify(priv));
    const echoing = createMockModel(r => { throw new ProviderCallError({ message: `content policy: "${sentenceOf(r)}" was flagged`, kind: 'http', statusCode: 400, isRetryable: false }); }, { provider: 'openai' });
    const { store, runId } = await run([file], { 'tutor=openai:mistral-small': echoing }, 1);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    expect(d.trialFailures).toMatchObject([{ message: 'content policy: "[private item text]" was flagged', statusCode: 400, count: 1 }]);
    for (const text of [renderHtml(d), renderMarkdown(d), JSON.stringify(d)]) {
      expect(text).not.toContain('Zebedee');
      expect(text).not.toContain('private:secret-1');
    }
  });
});

describe('model text in Markdown', () => {
  it('escapes link, image, code and emphasis syntax in every cell holding model text', async () => {
    const payloads = ['[x](javascript:alert(1))', '![i](http://evil/x.png)', '`code` *bold* _em_ <b>|'];
    const evil = createMockModel(r => (r.hints!.gold!.startsWith('{') ? r.hints!.gold! : payloads[userText(r).length % 3]!), { provider: 'openai' });
    const { store, runId } = await run([join(english, 'exercises.jsonl')], { 'evil=openai:evil': evil }, 1);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    const answers = d.failures.map(f => f.answer);
    for (const p of payloads) expect(answers).toContain(p);
    const md = renderMarkdown(d);
    expect(md).toContain('\\[x\\](javascript:alert(1))');
    expect(md).toContain('!\\[i\\](http://evil/x.png)');
    expect(md).toContain('\\`code\\` \\*bold\\* \\_em\\_ &lt;b&gt;\\|');
    // No link or image syntax survives anywhere: every [ and ] is escaped.
    expect(md).not.toMatch(/(?<!\\)\]\((?!docs)/);
    expect(md).not.toMatch(/(?<!\\)!(?<!\\)\[/);
    // And a CommonMark renderer that passes raw HTML through (as many do) makes no link, image,
    // tag or code of any of it: the payloads come out as the text they were.
    const html = new MarkdownIt({ html: true }).render(md);
    expect(html).not.toMatch(/<a |<img|<b>|<code>code|<em>(bold|em)|<strong>bold/);
    expect(html).toContain('[x](javascript:alert(1))');
    expect(html).toContain('![i](http://evil/x.png)');
    // Intra-word underscores stay readable (they cannot start emphasis).
    expect(md).toContain('| evil | exercises |');
  });
});

describe('huge answers', () => {
  it('copies at most 2,000 characters of an answer into HTML, Markdown and JSON, saying how much was cut', async () => {
    const huge = 'x'.repeat(5_000_000);
    const big = createMockModel(() => huge, { provider: 'openai' });
    const { store, runId } = await run([join(english, 'exercises.jsonl')], { 'big=openai:big': big }, 1);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    expect(d.failures.length).toBe(5);
    const f = d.failures[0]!;
    expect(f).toMatchObject({ answerLength: 5_000_000, truncated: true });
    expect(f.answer).toBe(`${'x'.repeat(2000)}… (4998000 more characters)`);
    for (const [text, note] of [[renderHtml(d), '… (4998000 more characters)'], [renderMarkdown(d), '… (4998000 more characters)'], [JSON.stringify(d), '… (4998000 more characters)']] as const) {
      expect(text.length).toBeLessThan(200_000);
      expect(text).toContain(note);
      expect(text).not.toContain('x'.repeat(2001));
    }
  });
});

describe('clipping and scrubbing helpers', () => {
  it('cuts at 2,000 characters without splitting a surrogate pair, inside JSON too, and scrubs private text', () => {
    expect(clipText('short')).toEqual({ text: 'short', truncated: false, length: 5 });
    const emoji = `${'a'.repeat(1999)}😀tail`; // the pair straddles the limit
    expect(clipText(emoji).text).toBe(`${'a'.repeat(1999)}… (6 more characters)`);
    expect(clipJson({ s: 'b'.repeat(2001), n: 1, list: ['ok'] })).toEqual({ value: { s: `${'b'.repeat(2000)}… (1 more character)`, n: 1, list: ['ok'] }, truncated: true });
    expect(privateTextScrubber(['ga', 'secret sentence.'])('the secret sentence. in ga')).toBe('the [private item text] in ga');
  });
});

describe('tests whose items span several languages', () => {
  it('shows one row per (test, language) with its own n and interval in the tables, charts and comparisons, and keeps the group breakdowns', async () => {
    const { store, runId } = await run([join(english, 'tutor_accuracy.jsonl'), join(irish, 'tutor_accuracy.jsonl'), join(english, 'exercises.jsonl')], {
      'good=openai:good': model(),
      // Right on English, no answer at all on every Irish tutor item: a pooled score would hide that.
      'en=openai:en-only': createMockModel(r => (r.messages.some(m => m.content.includes('tutor of Irish')) ? 'I do not know.' : r.hints!.gold!), { provider: 'openai' }),
      'baseline:copy': createBaselineModel('copy'),
    }, 1);
    const d = await buildReportData(store, runId, { tests: BUILT_IN_TESTS });
    expect(d.rows).toEqual([
      { test: 'exercises', language: null, label: 'exercises' },
      { test: 'tutor_accuracy', language: 'en', label: 'tutor_accuracy · en' },
      { test: 'tutor_accuracy', language: 'ga', label: 'tutor_accuracy · ga' },
    ]);
    const at = (model: string, language: string | null) => d.cells.find(c => c.model === model && c.test === 'tutor_accuracy' && c.language === language)!;
    expect([at('en', 'en').n, at('en', 'en').mean, at('en', 'ga').n, at('en', 'ga').mean]).toEqual([20, 1, 20, 0]);
    expect(at('en', 'en').low).not.toBeNull();
    expect(at('en', 'en').trials + at('en', 'ga').trials).toBe(at('en', null).trials);
    // The pooled cell stays in the JSON (language null) but no table shows it.
    expect(at('en', null)).toMatchObject({ n: 40, mean: 0.5 });
    // Per-language comparisons, with warnings naming the row.
    const ga = d.comparisons.find(c => c.test === 'tutor_accuracy' && c.language === 'ga' && c.a === 'good' && c.b === 'en')!;
    expect(ga).toMatchObject({ n: 20, difference: 1, warning: null });
    expect(d.comparisons.find(c => c.test === 'tutor_accuracy' && c.language === 'en' && c.a === 'good' && c.b === 'en')).toMatchObject({ n: 20, difference: 0 });
    // Groups (language included) are kept per test.
    expect(d.groups.filter(g => g.model === 'en' && g.test === 'tutor_accuracy' && g.field === 'language').map(g => [g.value, g.n, g.mean])).toEqual([['en', 20, 1], ['ga', 20, 0]]);
    const html = renderHtml(d);
    expect(html).toContain('<tr><th>tutor_accuracy · en</th>');
    expect(html).toContain('<tr><th>tutor_accuracy · ga</th>');
    expect(html).not.toContain('<tr><th>tutor_accuracy</th>');
    expect(html).toContain('<figcaption>tutor_accuracy · ga</figcaption>');
    expect(html).not.toContain('<figcaption>tutor_accuracy</figcaption>');
    expect(html).toMatch(/<tr><td>tutor_accuracy · ga<\/td><td>good<\/td><td>en<\/td><td>20<\/td><td><b>\+100\.0<\/b>/);
    expect(html).not.toMatch(/<tr><td>tutor_accuracy<\/td><td>good<\/td>/);
    const md = renderMarkdown(d);
    expect(md).toMatch(/\| tutor_accuracy · ga \| 100\.0 \[100\.0, 100\.0\] n=20 \| 0\.0 \[0\.0, 0\.0\] n=20 \|/);
    expect(md).toContain('| tutor_accuracy · ga | good | en | 20 | +100.0');
    expect(md).not.toMatch(/\| tutor_accuracy \| good \| en \|/);
    expect(md).not.toMatch(/n=40/);
  });
});
