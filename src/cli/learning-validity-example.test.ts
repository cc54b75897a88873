import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Judgment } from '../core/index.js';
import type { DeckRecord } from '../learning/steps/deck-record.js';
import { EXAMPLE_UNITS, SLIDES_OF, itemsLearned, judgeRating, startGainServer } from '../learning/testing/gain-server.js';
import { loadShippedUnit } from '../learning/testing/study-server.js';
import type { FakeServer } from '../providers/testing/fake-servers.js';
import { kendallTauB } from '../stats/correlation/index.js';
import { openStore } from '../store/index.js';
import type { TauSummary } from '../validity/index.js';
import { docShellBlock } from './testing/doc-block.js';
import { runPasted } from './testing/run-pasted.js';
import { runCli, type CliResult } from './testing/run-cli.js';

const root = new URL('../../', import.meta.url).pathname;
const units = EXAMPLE_UNITS.map(loadShippedUnit);
const GENERATORS: Record<string, string> = { a: 'generator-a', b: 'generator-b', c: 'generator-c', d: 'generator-d' };

let server: FakeServer;
let cwd: string;
let pasted: CliResult;
let judgments: Judgment[];
let deckOf: Map<string, { unit: string; generator: string }>;
let runId: string;
const STORE = 'sqlite:learning-validity.db';

beforeAll(async () => {
  server = await startGainServer(units);
  cwd = mkdtempSync(join(tmpdir(), 'paideia-learning-validity-'));
  pasted = await runPasted(docShellBlock(join(root, 'docs/validity.md'), 'learning-validity-example'), { cwd, env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' } });
  const store = await openStore(`sqlite:${join(cwd, 'learning-validity.db')}`, { mustExist: true, readOnly: true });
  try {
    const [run] = await store.listRuns();
    runId = run!.id;
    judgments = await store.listJudgments(runId);
    deckOf = new Map((await store.listArtifacts(runId, 'learning.deck')).map(a => a.value as unknown as DeckRecord).map(d => [d.trialId, { unit: d.unit, generator: d.generator.alias }]));
  } finally {
    await store.close();
  }
}, 300_000);
afterAll(async () => server.close());

/** The gain the script implies for a deck: nothing right before it, the items learned after it. */
function scriptedGain(deck: string): number {
  const [unit, generator] = deck.split('/') as [string, string];
  const of = units.find(u => u.id === unit)!.source_items.length;
  return itemsLearned(unit, SLIDES_OF[GENERATORS[generator]!]!, of) / of;
}

/** Per deck, the stored Judgment value of one judge on one dimension. */
function storedRatings(judge: string, dimension: string): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const j of judgments.filter(x => x.rater.alias === judge && x.details?.dimension === dimension)) {
    const d = deckOf.get(j.targetTrialId)!;
    out.set(`${d.unit}/${d.generator}`, j.value);
  }
  return out;
}

interface Row { rater: string; prompt: string; item: string; nUnits: number; unscored: number; tauExperts: TauSummary | null; tauOutcome: TauSummary }

describe('the learning-validity worked example of docs/validity.md, pasted against a scripted server', () => {
  it('runs the study and stores every judgment, the unreadable ones unscored with their text', () => {
    expect(pasted.code, pasted.stderr).toBe(0);
    // 12 decks x 2 judges x 2 dimensions; judge jb cannot rate D1 of the three two-slide decks.
    expect(judgments).toHaveLength(48);
    const unscored = judgments.filter(j => j.value === null);
    expect(unscored.map(j => `${j.rater.alias}/${j.details?.dimension}/${deckOf.get(j.targetTrialId)!.generator}`)).toEqual(['jb/d1/d', 'jb/d1/d', 'jb/d1/d']);
    expect(unscored.every(j => j.raw === 'The deck is too short to rate.' && /did not fit the format/.test(j.reason ?? ''))).toBe(true);
  });

  it("prints each judge's tau with gain equal to kendallTauB of the stored ratings and the scripted gains", () => {
    const report = JSON.parse(readFileSync(join(cwd, 'decks.json'), 'utf8')) as { alignment: Row[]; notes: string[]; counts: { observations: number; outcomes: number } };
    expect(report.counts.observations).toBe(12);
    expect(report.counts.outcomes).toBe(12);
    expect(report.alignment.map(r => `${r.rater}/${r.prompt}/${r.item}`)).toEqual(['ja/judge-1/d1', 'ja/judge-1/d2', 'jb/judge-1/d1', 'jb/judge-1/d2']);
    const gains = new Set<number>();
    for (const row of report.alignment) {
      const stored = [...storedRatings(row.rater, row.item)].filter(([, v]) => v !== null).sort(([a], [b]) => (a < b ? -1 : 1));
      for (const [deck] of stored) gains.add(scriptedGain(deck));
      const expected = kendallTauB(stored.map(([, v]) => v!), stored.map(([deck]) => scriptedGain(deck)));
      expect(row.nUnits).toBe(stored.length);
      expect(row.tauOutcome.tau).toBeCloseTo(expected.tau, 12);
      expect(row.tauOutcome.pValue).toBeCloseTo(expected.pValue, 12);
      expect(row.tauOutcome.low90).toBeLessThanOrEqual(row.tauOutcome.tau);
      expect(row.tauOutcome.high90).toBeGreaterThanOrEqual(row.tauOutcome.tau);
      // no experts: absent, with a note, not a crash
      expect(row.tauExperts).toBeNull();
      // the stored values are the script's, so the gains are the ones the learners earned
      for (const [deck, v] of stored) expect(v).toBe(judgeRating(row.rater === 'ja' ? 'judge-a' : 'judge-b', row.item as 'd1', SLIDES_OF[GENERATORS[deck.split('/')[1]!]!]!));
    }
    // the gains differ between decks, so tau is meaningful
    expect(gains.size).toBeGreaterThanOrEqual(4);
    const tau = (rater: string, item: string) => report.alignment.find(r => r.rater === rater && r.item === item)!;
    expect(tau('ja', 'd1').tauOutcome.tau).toBeGreaterThan(0.5);
    expect(tau('jb', 'd2').tauOutcome.tau).toBeLessThan(-0.5);
    expect(tau('jb', 'd1').nUnits).toBe(9);
    expect(tau('jb', 'd1').unscored).toBe(3);
    expect(report.notes.join('\n')).toMatch(/Item "d1" has no expert ratings/);
    // the Markdown the last command printed shows the same tau
    expect(pasted.stdout).toContain(tau('ja', 'd1').tauOutcome.tau.toFixed(3));
  });

  it("puts the same figures in the learning report's alignment section", () => {
    const report = JSON.parse(readFileSync(join(cwd, 'decks.json'), 'utf8')) as { alignment: Row[] };
    const md = readFileSync(join(cwd, 'learning-report.md'), 'utf8');
    const section = md.slice(md.indexOf("## Do the judges' ratings track learner gain?"));
    expect(section).toMatch(/No expert scores are attached, so tau with experts is absent/);
    for (const row of report.alignment) {
      const t = row.tauOutcome;
      expect(section).toContain(`| ${row.rater} | ${row.prompt} | ${row.item.toUpperCase()} | ${row.nUnits} | ${row.unscored}/`);
      expect(section).toContain(`${t.tau.toFixed(3)} 90% [${t.low90.toFixed(2)}, ${t.high90.toFixed(2)}] 95% [${t.low95.toFixed(2)}, ${t.high95.toFixed(2)}]`);
    }
  });

  it('takes an --outcomes file over the gains, `paideia report` carries the same section as JSON, and the expert template of the decks works filled in', async () => {
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const decks = [...new Set([...deckOf.values()].map(d => `${d.unit}/${d.generator}`))].sort();
    writeFileSync(join(cwd, 'reversed.csv'), `unit,outcome\n${decks.map(d => `${d},${1 - scriptedGain(d)}`).join('\n')}\n`);
    const before = server.requests.length;
    const reversed = await runCli(['validity', 'analyze', '--run', runId, '--outcomes', 'reversed.csv', '--format', 'json', '--store', STORE], { cwd, env });
    expect(reversed.code, reversed.stderr).toBe(0);
    const ja = (JSON.parse(reversed.stdout) as { alignment: Row[] }).alignment.find(r => r.rater === 'ja' && r.item === 'd1')!;
    const stored = [...storedRatings('ja', 'd1')].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(ja.tauOutcome.tau).toBeCloseTo(kendallTauB(stored.map(([, v]) => v!), stored.map(([d]) => 1 - scriptedGain(d))).tau, 12);
    expect(ja.tauOutcome.tau).toBeLessThan(0);

    const report = await runCli(['report', runId, '--format', 'json', '--out', '-', '--store', STORE], { cwd, env });
    expect(report.code, report.stderr).toBe(0);
    const section = (JSON.parse(report.stdout) as { judgeValidity: { experts: null; minimumDecks: number; alignment: Array<{ judge: string; item: string; tauOutcome: TauSummary; tauExperts: null }> } }).judgeValidity;
    const analysed = JSON.parse(readFileSync(join(cwd, 'decks.json'), 'utf8')) as { alignment: Row[] };
    expect(section.minimumDecks).toBe(4);
    expect(section.experts).toBeNull();
    expect(section.alignment.map(a => a.tauOutcome)).toEqual(analysed.alignment.map(a => a.tauOutcome));

    // the blank expert file: one row per deck and item, with the deck's text; filled in, it adds tau with experts
    const template = readFileSync(join(cwd, 'deck-experts.csv'), 'utf8').trim().split(/\r\n/);
    expect(template[0]).toBe('observation,item,expert,score,text');
    expect(template).toHaveLength(1 + decks.length * 2);
    expect(template[1]).toMatch(/^abma-serial-verbs\/a,d1,expert-1,,"Slide 1:\n/);
    const slidesOf = (deck: string) => SLIDES_OF[GENERATORS[deck.split('/')[1]!]!]!;
    const filled = decks.flatMap(d => ['d1', 'd2'].map(item => `${d},${item},e1,${6 - slidesOf(d) > 3 ? 1 : 5}`));
    writeFileSync(join(cwd, 'filled.csv'), `observation,item,expert,score\n${filled.join('\n')}\n`);
    const withExperts = await runCli(['validity', 'analyze', '--run', runId, '--experts', 'filled.csv', '--format', 'json', '--store', STORE], { cwd, env });
    expect(withExperts.code, withExperts.stderr).toBe(0);
    const jaExperts = (JSON.parse(withExperts.stdout) as { alignment: Row[] }).alignment.find(r => r.rater === 'ja' && r.item === 'd1')!;
    const expertScores = stored.map(([d]) => (6 - slidesOf(d) > 3 ? 1 : 5));
    expect(jaExperts.tauExperts!.tau).toBeCloseTo(kendallTauB(stored.map(([, v]) => v!), expertScores).tau, 12);
    // report and analysis read the store only
    expect(server.requests.length).toBe(before);
  }, 120_000);
});
