import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord, ChatMessage } from '../core/index.js';
import type { LearningReport } from '../learning/report/index.js';
import type { DeckRecord } from '../learning/steps/deck-record.js';
import { leaks } from '../learning/units/leak.js';
import { loadShippedUnit, startStudyServer } from '../learning/testing/study-server.js';
import type { FakeServer } from '../providers/testing/fake-servers.js';
import { openStore } from '../store/index.js';
import { runCli, type CliResult } from './testing/run-cli.js';
import { runPasted } from './testing/run-pasted.js';

const UNITS = ['chickasaw-case-and-person', 'udihe-possession'];
const units = UNITS.map(loadShippedUnit);
const ARGS = [
  'learning', 'run', '--units', UNITS.join(','),
  '--generator', 'good=openai:gen-good', '--generator', 'poor=openai:gen-poor',
  '--learner', 'strong=openai:learner-strong', '--learner', 'weak=openai:learner-weak',
  '--judge', 'ja=openai:judge-a', '--judge', 'jb=openai:judge-b', '--images', 'strong,ja',
];

let server: FakeServer;
let cwd: string;
let first: CliResult;
let store: string;
const env = () => ({ OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' });
const textOf = (m: ChatMessage) => m.content;

beforeAll(async () => {
  server = await startStudyServer(units);
  cwd = mkdtempSync(join(tmpdir(), 'paideia-learning-'));
  store = `sqlite:${join(cwd, 'study.db')}`;
  first = await runCli([...ARGS, '--store', store], { cwd, env: env() });
}, 180_000);
afterAll(async () => server.close());

async function stored<T>(read: (s: Awaited<ReturnType<typeof openStore>>) => Promise<T>): Promise<T> {
  const s = await openStore(store, { mustExist: true, readOnly: true });
  try { return await read(s); } finally { await s.close(); }
}

describe('paideia learning run: two units x two generator models x two learner models, judges', () => {
  it('prints the run id and stores every deck with its PNGs, every judgment and answer', async () => {
    expect(first.code, first.stderr).toBe(0);
    const runId = first.stdout.trim();
    expect(runId).toMatch(/^lrn-[0-9a-f]{16}$/);
    // No model here has a price: the closing line says their cost is unknown, never a plain $0.
    expect(first.stderr).toMatch(/; spent \$0\.0000 plus an unknown amount for [\w, -]*\bgood\b[\w, -]* \(no price\) \(store /);
    const decks = await stored(s => s.listArtifacts(runId, 'learning.deck'));
    expect(decks).toHaveLength(4);
    for (const { value } of decks) {
      const d = value as unknown as DeckRecord & { status: 'ok' };
      expect(d.status).toBe('ok');
      expect(d.slides).toHaveLength(d.generator.alias === 'good' ? 3 : 2);
      const png = await stored(s => s.getBlob(d.slides[0]!.png!.hash));
      expect(Buffer.from(png!.bytes).subarray(1, 4).toString()).toBe('PNG');
      expect(d.metrics.slides).toBe(d.slides.length);
      expect(d.metrics.exercises).toBe(d.generator.alias === 'good' ? 1 : 0);
    }
    const judgments = await stored(s => s.listJudgments(runId));
    const calls: CallRecord[] = await stored(s => s.listCalls(runId));
    // 4 decks x 2 judges x 2 dimensions, each sub-dimension rated 5 on the good deck and 2 on the poor one
    expect(judgments).toHaveLength(16);
    for (const j of judgments) {
      // Each names the stored call it was read from: its own trial's, answering with its raw text.
      const source = calls.find(c => c.seq === j.callSeq);
      expect([source?.trialId, source?.result?.text]).toEqual([j.trialId, j.raw]);
      const deck = decks.map(d => d.value as unknown as DeckRecord).find(d => d.trialId === j.targetTrialId)!;
      const rating = deck.generator.alias === 'good' ? 5 : 2;
      expect(j.value).toBe(rating);
      expect(Object.values(j.fields).every(v => v === rating)).toBe(true);
      expect(Object.keys(j.fields)).toHaveLength(j.details?.dimension === 'd1' ? 5 : 6);
    }
    expect(await stored(s => s.listArtifacts(runId, 'learning.answers'))).toHaveLength(8);
  });

  it('gives each phase a fresh context with no test answer in it, proven from the stored requests', async () => {
    const runId = first.stdout.trim();
    const calls: CallRecord[] = await stored(s => s.listCalls(runId));
    const learnerCalls = calls.filter(c => c.request.context?.role?.startsWith('learner:'));
    expect(learnerCalls.length).toBeGreaterThan(40);
    const phases = new Set<string>();
    for (const c of learnerCalls) {
      const unit = units.find(u => u.id === c.request.context!.itemId)!;
      const phase = c.request.context!.role!.slice('learner:'.length);
      phases.add(phase);
      const messages = c.request.messages;
      expect(messages.map(m => m.role)).toEqual(['system', 'user']);
      const text = messages.map(textOf).join('\n');
      // The item a test call asks is in its context; everything else it holds must not give an answer away.
      const question = /Question: (.*)\n/.exec(text)?.[1];
      const rest = question === undefined ? text : text.replace(`Question: ${question}`, '');
      for (const item of [...unit.source_items, ...unit.near_transfer, ...unit.far_transfer]) {
        for (const a of item.accepted ?? [item.answer]) if (!(question && leaks(a, question))) expect(leaks(a, rest), `${phase} call ${c.seq} holds "${a}"`).toBe(false);
      }
      if (phase === 'pretest') expect(text).not.toMatch(/notes|Slide \d/i);
      if (phase === 'study') expect(text).not.toContain('Question:');
      if (phase === 'posttest' || phase === 'near' || phase === 'far') expect(text).toContain('Your notes from the lesson');
    }
    expect([...phases].sort()).toEqual(['far', 'near', 'posttest', 'pretest', 'study']);
    // The image learner studies PNGs sent as data URLs; the text learner gets slide text.
    const studies = server.requests.filter(r => JSON.stringify(r.body).includes('one slide at a time'));
    const strong = studies.filter(r => (r.body as { model: string }).model === 'learner-strong');
    const weak = studies.filter(r => (r.body as { model: string }).model === 'learner-weak');
    expect(strong.length).toBeGreaterThan(0);
    expect(strong.every(r => r.rawBody.includes('data:image/png;base64,'))).toBe(true);
    expect(weak.some(r => r.rawBody.includes('image_url'))).toBe(false);
  });

  it('reports the figures a reader can count by hand, and `paideia report` gives the same', async () => {
    const runId = first.stdout.trim();
    const json = await runCli(['learning', 'report', runId, '--format', 'json', '--store', store], { cwd });
    expect(json.code, json.stderr).toBe(0);
    const r = JSON.parse(json.stdout) as LearningReport;
    // good deck: both learners learn (post 1); strong transfers (near, far 1), weak does not (0): 0.5 on average.
    expect(r.generators.good).toMatchObject({ pre: { mean: 0, n: 2 }, post: { mean: 1, n: 2 }, gain: { mean: 1, n: 2, low: 1, high: 1 }, near: { mean: 0.5 }, far: { mean: 0.5 }, d1: { mean: 5 }, d2: { mean: 5 } });
    expect(r.generators.poor).toMatchObject({ pre: { mean: 0 }, post: { mean: 0 }, gain: { mean: 0 }, near: { mean: 0 }, far: { mean: 0 }, d1: { mean: 2 }, d2: { mean: 2 } });
    // items pooled: strong gets all 8 near items of the two units right, weak none: 8 of 16
    expect(r.generators.good!.outcomes).toMatchObject({ micro: { near: { mean: 0.5 } }, nearFarGap: { macro: { mean: 0 } } });
    expect(Object.keys(r.generators.good!.outcomes!.gainByTaskType).sort()).toEqual(['matching', 'translation']);
    expect(r.generators.good!.d3.slides.mean).toBe(3);
    expect(r.generators.poor!.d3.tables.mean).toBe(0);
    // across the four decks, D1 (5, 5, 2, 2) orders gain (1, 1, 0, 0) perfectly
    expect(r.correlations.d1.decks).toMatchObject({ n: 4, spearman: { rho: 1 }, kendall: { tau: 1 } });
    expect(r.correlations.d2.generators.n).toBe(2);
    expect(r.ablations.learners.find(l => l.learner === 'strong' && l.generator === 'good')!.far.mean).toBe(1);
    expect(r.ablations.learners.find(l => l.learner === 'weak' && l.generator === 'good')!.far.mean).toBe(0);
    const viaReport = await runCli(['report', runId, '--format', 'json', '--out', '-', '--store', store], { cwd });
    expect(viaReport.stdout).toBe(json.stdout);
    const html = await runCli(['learning', 'report', runId, '--format', 'html', '--store', store], { cwd });
    expect(html.stdout).toContain('<img alt="slide 1" src="data:image/png;base64,');
    expect(html.stdout).toContain('<svg');
    const md = await runCli(['learning', 'report', runId, '--format', 'md', '--store', store], { cwd });
    expect(md.stdout).toContain('| good | 0.000 [0.000, 0.000] (n=2) | 1.000 [1.000, 1.000] (n=2) |');
    // The command the report names for the full analysis runs as pasted, from another folder: it names the store.
    const analyze = /The full analysis: `([^`]+)`/.exec(md.stdout)?.[1];
    expect(analyze).toMatch(/^paideia validity analyze --run \S+ --store /);
    const pasted = await runPasted(`${analyze!} --format json`, { cwd: mkdtempSync(join(tmpdir(), 'paideia-elsewhere-')) });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(JSON.parse(pasted.stdout)).toHaveProperty('alignment');
    // The JSON is the same wherever the run is stored: it names no store.
    expect(json.stdout).not.toContain('--store');
  });

  it('asks nothing when the same command runs again', async () => {
    const before = server.requests.length;
    const again = await runCli([...ARGS, '--store', store], { cwd, env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(first.stdout.trim());
    expect(server.requests.length).toBe(before);
  }, 120_000);
});
