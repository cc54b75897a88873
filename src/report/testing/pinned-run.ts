import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModelSpec, ProviderCallError, type ChatModel, type ChatRequest, type Store } from '../../core/index.js';
import { createBaselineModel } from '../../providers/baseline/index.js';
import { createMockModel } from '../../providers/testing/mock-model.js';
import { builtInScorers } from '../../scoring/builtins.js';
import { judgingConfig } from '../../suites/judging/index.js';
import { runSuite } from '../../suites/run.js';
import { BUILT_IN_TESTS } from '../../suites/tests/index.js';
import { buildReportData, renderReport } from '../index.js';

const samples = fileURLToPath(new URL('../../../data/samples', import.meta.url));
const prices = { source: 'test', date: '2026-11-29', models: { 'baseline:*': { input: 0, output: 0 }, 'openai:good': { input: 1000, output: 1000 }, 'openai:half': { input: 0.3, output: 0.7 }, 'openai:gpt-4.1': { input: 2, output: 8 } } };
const userText = (r: ChatRequest) => r.messages.filter(m => m.role === 'user').map(m => m.content).join('\n');
const sentenceOf = (r: ChatRequest) => /Learner's sentence[^\n]*\n(.*)/.exec(userText(r))?.[1] ?? '';
/** A stable draw from a request's text, so every run of this file makes the same answers. */
const draw = (r: ChatRequest, salt: number) => [...userText(r)].reduce((h, ch) => (h * 31 + ch.charCodeAt(0) + salt) % 1009, 7) / 1009;

function answering(wrong: (r: ChatRequest) => boolean, fail: (r: ChatRequest) => string | undefined = () => undefined): ChatModel {
  return createMockModel(r => {
    const problem = fail(r);
    if (problem) throw new ProviderCallError({ message: problem, kind: 'http', statusCode: problem.startsWith('rate') ? 429 : 500, isRetryable: false });
    const hint = wrong(r) ? r.hints!.copy ?? 'no idea' : r.hints!.gold!;
    if (!hint.startsWith('{')) return hint;
    return JSON.stringify({ ...JSON.parse(hint), explanation: `Because of "${sentenceOf(r)}".` });
  }, { provider: 'openai' });
}

/**
 * One run that exercises every part of a suite report: three tests over two languages, public and
 * private items, repeats that disagree, priced, unpriced and baseline models, provider errors of
 * two kinds (some retried into answers), and two explanation judges. Concurrency 1, so the calls
 * are stored in the same order every time and the report's sums are the same to the last bit.
 */
export async function pinnedRun(store: Store, dir: string): Promise<string> {
  const lines = readFileSync(join(samples, 'english', 'exercises.jsonl'), 'utf8').trim().split('\n');
  // Every third exercise is private: its text must stay out, its scores in.
  const exercises = join(dir, 'exercises.jsonl');
  writeFileSync(exercises, lines.map((l, i) => (i % 3 ? l : JSON.stringify({ ...JSON.parse(l), visibility: 'private', contamination: 'private' }))).join('\n'));
  const suites = [exercises, join(samples, 'english', 'tutor_accuracy.jsonl'), join(samples, 'irish', 'tutor_accuracy.jsonl')];
  let tries = 0;
  // Wrong the first time it sees some requests and right on the repeat: items that are not consistent.
  const seen = new Set<string>();
  const firstTime = (r: ChatRequest) => !seen.has(userText(r)) && Boolean(seen.add(userText(r)));
  const models: Record<string, ChatModel> = {
    good: answering(r => (firstTime(r) && draw(r, 8) < 0.25) || draw(r, 1) < 0.15),
    half: answering(r => draw(r, 2) < 0.5, r => (draw(r, 3) < 0.1 ? `rate limited on ${sentenceOf(r) || 'an exercise'}` : undefined)),
    twin: answering(r => draw(r, 4) < 0.3, r => (draw(r, 5) < 0.08 && tries++ % 3 !== 2 ? 'upstream exploded' : undefined)),
    'baseline:copy': createBaselineModel('copy'),
    'baseline:gold': createBaselineModel('gold'),
  };
  const specs = ['good=openai:good', 'half=openai:half', 'twin=openai:twin', 'baseline:copy', 'baseline:gold'].map(s => parseModelSpec(s));
  const verdict = (salt: number) => createMockModel(r => JSON.stringify({ pass: draw(r, salt) > 0.3, reason: `verdict ${salt}` }));
  const judges = new Map([['a', verdict(6)], ['b', verdict(7)]]);
  const options = {
    store, models: specs, repeats: 2, seed: 11, params: {}, testDefinitions: BUILT_IN_TESTS, scorers: builtInScorers(), prices,
    createModel: (s: { alias: string }) => models[s.alias] ?? judges.get(s.alias)!, concurrency: () => 1,
  };
  const { run } = await runSuite({ ...options, suites, judging: judgingConfig(['a=openai:gpt-4.1', 'b=anthropic:claude-sonnet-4']) });
  // Retried once: some errors become answers, their error records stay stored but superseded.
  await runSuite({ ...options, suites: [], resumeRunId: run.id, retryErrors: true });
  return run.id;
}

/** The JSON report of the pinned run as plain data, without what changes from one build to the next (its time, the temporary folder). */
export async function pinnedReport(store: Store, runId: string): Promise<Record<string, unknown>> {
  const { generatedAt: _, ...data } = JSON.parse(renderReport(await buildReportData(store, runId, { tests: BUILT_IN_TESTS, resamples: 300 }), 'json')) as Record<string, unknown>;
  const config = data.config as { suites: string[] };
  return { ...data, config: { ...config, suites: config.suites.map(s => s.replace(/^.*\/data\/samples\/|^.*\//, '')) } };
}
