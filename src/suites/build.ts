import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ItemSchema, type Item } from '../core/item.js';
import type { BuildContext, Shortfall, TestBuilder } from './builder.js';
import { auditMarkdown, auditOf, checkAuditIds, type AuditRecord, type TestAudit } from './audit.js';
import { englishBuilders } from './english/index.js';
import { irishBuilders } from './irish/index.js';
import { KNOWN_CREDITS, attributionMarkdown, methodologyMarkdown, type SourceCredit } from './methodology.js';
import { byCodePoint, createRng, sampleStratified, type BuildNotes, type StratumCount } from './sampling.js';

/** Every builder the project ships, in the order reports list them. */
export const defaultBuilders: readonly TestBuilder[] = [...irishBuilders, ...englishBuilders];

export interface BuildSuitesOptions {
  /** Folder holding the source folders (default `data/sources`). */
  sourcesDir?: string;
  /** Full item sets, one JSONL per test under `<privateDir>/<suite>/` (default `private/suites`, git-ignored). */
  privateDir?: string;
  /** Public samples and ATTRIBUTION.md under `<samplesDir>/<suite>/` (default `data/samples`). */
  samplesDir?: string;
  /** Build reports and METHODOLOGY.md under `<reportsDir>/<suite>/` (default: the samples folder). */
  reportsDir?: string;
  seed?: number;
  targetPerTest?: number;
  /** Public sample size per test (design.md: 20). */
  publicPerTest?: number;
  builders?: readonly TestBuilder[];
  /** Credits for datasets beyond those in KNOWN_CREDITS (a user's own sources). */
  credits?: readonly SourceCredit[];
  /** People's checks of built items (`loadAudit`): each test's report gives its flagged share with an exact interval. */
  audit?: readonly AuditRecord[];
}

/** What the build report says about one test. Counts are objects with sorted keys, so the JSON is stable. */
export interface TestReport {
  suite: string;
  test: string;
  rule: string;
  items: number;
  public: number;
  private: number;
  languages: Record<string, number>;
  levels: Record<string, number>;
  topics: Record<string, number>;
  evidence: Record<string, number>;
  strata?: StratumCount[];
  exclusions?: Record<string, number>;
  shortfalls: Shortfall[];
  /** Present when some of the test's items were audited. */
  audit?: TestAudit;
}

export interface SuiteReport {
  suite: string;
  seed: number;
  targetPerTest: number;
  publicPerTest: number;
  sourcesDir: string;
  tests: TestReport[];
}

export interface BuildSuitesResult {
  suites: SuiteReport[];
  /** Every file written, in the order written. */
  files: string[];
}

const ITEM_KEYS = [
  'id', 'test', 'language', 'input', 'accepted', 'references', 'answer', 'pivot_reference', 'source', 'licence', 'evidence',
  'visibility', 'contamination', 'human_checked', 'topic', 'level', 'l1', 'notes',
];

/** One JSONL line: design.md's fields in a fixed order, any others after them in code-point order. */
export function itemLine(item: Item): string {
  const rec = item as Record<string, unknown>;
  const extra = Object.keys(rec).filter(k => !ITEM_KEYS.includes(k)).sort(byCodePoint);
  const out: Record<string, unknown> = {};
  for (const k of [...ITEM_KEYS, ...extra]) if (rec[k] !== undefined) out[k] = rec[k];
  return JSON.stringify(out);
}

const jsonl = (items: readonly Item[]): string => items.map(i => `${itemLine(i)}\n`).join('');

function tally(values: Iterable<string | undefined>): Record<string, number> {
  const m = new Map<string, number>();
  for (const v of values) if (v !== undefined) m.set(v, (m.get(v) ?? 0) + 1);
  return Object.fromEntries([...m].sort((a, b) => byCodePoint(a[0], b[0])));
}

/**
 * Builders may mark their own public sample (the Irish ones do, to keep third-party text private);
 * for one that marks none, pick `n` here by a seeded sample stratified over topic.
 */
function ensurePublic(suite: string, test: string, items: Item[], n: number, seed: number): Item[] {
  if (items.some(i => i.visibility === 'public')) return items;
  const sorted = items.slice().sort((a, b) => byCodePoint(a.id, b.id));
  const pick = sampleStratified(sorted, { target: Math.min(n, items.length), rng: createRng(seed, suite, test, 'public'), stratum: i => i.topic ?? '' });
  const ids = new Set(pick.picked.map(i => i.id));
  return items.map(i => (ids.has(i.id) ? { ...i, visibility: 'public' } : i));
}

/** Every item must pass ItemSchema and ids must be unique: a builder bug stops the build before anything is written. */
function checkItems(suite: string, test: string, items: readonly Item[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const r = ItemSchema.safeParse(item);
    if (!r.success) problems.push(`${item.id ?? '(no id)'}: ${r.error.issues.map(i => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    if (seen.has(item.id)) problems.push(`${item.id}: duplicate id`);
    seen.add(item.id);
    if (item.test !== test) problems.push(`${item.id}: test "${item.test}" from the builder of "${test}"`);
  }
  if (problems.length) throw new Error(`builder ${suite}/${test} produced invalid items:\n  ${problems.slice(0, 20).join('\n  ')}`);
}

function write(path: string, text: string, files: string[]): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  files.push(path);
}

const cell = (r: Record<string, number>): string => Object.entries(r).map(([k, v]) => `${k} ${v}`).join(', ') || '—';

/** The Markdown build report of one suite. */
export function buildReportMarkdown(report: SuiteReport): string {
  const lines = [
    `# Build report: ${report.suite} suite`,
    '',
    `Generated by \`buildSuites\` (src/suites/build.ts); do not edit by hand. Seed ${report.seed}, target ${report.targetPerTest} items per test, ` +
      `${report.publicPerTest} public, sources from \`${report.sourcesDir}\`. Rules and evidence labels: METHODOLOGY.md.`,
    '',
    '| Test | Items | Public | Languages | Levels | Evidence | Shortfalls |',
    '|---|---:|---:|---|---|---|---:|',
  ];
  for (const t of report.tests) {
    lines.push(`| \`${t.test}\` | ${t.items} | ${t.public} | ${cell(t.languages)} | ${cell(t.levels)} | ${cell(t.evidence)} | ${t.shortfalls.length} |`);
  }
  for (const t of report.tests) {
    lines.push('', `## \`${t.test}\``, '', `Topics: ${cell(t.topics)}.`);
    if (t.strata?.length) {
      lines.push('', '| Stratum | Candidates | Quota | Picked |', '|---|---:|---:|---:|');
      for (const s of t.strata) lines.push(`| ${s.stratum} | ${s.available} | ${s.quota} | ${s.picked} |`);
    }
    const excl = Object.entries(t.exclusions ?? {});
    if (excl.length) {
      lines.push('', 'Left out before sampling:', '');
      for (const [reason, n] of excl) lines.push(`- ${n} ${reason}`);
    }
    if (t.audit) lines.push('', auditMarkdown(t.audit));
    lines.push('', t.shortfalls.length ? 'Shortfalls:' : 'Shortfalls: none.');
    if (t.shortfalls.length) {
      lines.push('');
      for (const s of t.shortfalls) lines.push(`- wanted ${s.wanted}, got ${s.got}: ${s.reason}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Build every suite: full item sets to the private folder, the public sample of each test, its
 * ATTRIBUTION.md, the build report (JSON and Markdown) and METHODOLOGY.md. The same sources, seed
 * and options give byte-identical files: nothing here reads the clock or the locale.
 */
export async function buildSuites(options: BuildSuitesOptions = {}): Promise<BuildSuitesResult> {
  const sourcesDir = options.sourcesDir ?? 'data/sources';
  const privateDir = options.privateDir ?? 'private/suites';
  const samplesDir = options.samplesDir ?? 'data/samples';
  const reportsDir = options.reportsDir ?? samplesDir;
  const seed = options.seed ?? 20261129;
  const targetPerTest = options.targetPerTest ?? 200;
  const publicPerTest = options.publicPerTest ?? 20;
  const builders = options.builders ?? defaultBuilders;
  const credits = [...(options.credits ?? []), ...KNOWN_CREDITS];
  const ctx: BuildContext = { sourcesDir, seed, targetPerTest };

  const suites = [...new Set(builders.map(b => b.suite))];
  const files: string[] = [];
  const reports: SuiteReport[] = [];
  const builtIds: string[] = [];
  const writes: Array<() => void> = [];
  for (const suite of suites) {
    const suiteBuilders = builders.filter(b => b.suite === suite);
    const built: Array<{ builder: TestBuilder; items: Item[]; report: TestReport }> = [];
    for (const builder of suiteBuilders) {
      const result = (await builder.build(ctx)) as Awaited<ReturnType<TestBuilder['build']>> & BuildNotes;
      checkItems(suite, builder.test, result.items);
      const items = ensurePublic(suite, builder.test, result.items, publicPerTest, seed).sort((a, b) => byCodePoint(a.id, b.id));
      const pub = items.filter(i => i.visibility === 'public');
      const shortfalls = [...result.shortfalls];
      if (pub.length < Math.min(publicPerTest, targetPerTest) && !shortfalls.some(s => s.reason.startsWith('public sample'))) {
        shortfalls.push({ test: builder.test, wanted: Math.min(publicPerTest, targetPerTest), got: pub.length, reason: 'public sample: too few items to choose from.' });
      }
      const report: TestReport = {
        suite,
        test: builder.test,
        rule: builder.rule,
        items: items.length,
        public: pub.length,
        private: items.length - pub.length,
        languages: tally(items.map(i => i.language)),
        levels: tally(items.map(i => i.level ?? 'none')),
        topics: tally(items.map(i => i.topic ?? 'none')),
        evidence: tally(items.map(i => i.evidence)),
        ...(result.strata ? { strata: result.strata } : {}),
        ...(result.exclusions ? { exclusions: result.exclusions } : {}),
        shortfalls,
      };
      const audit = auditOf(items, options.audit ?? []);
      if (audit) report.audit = audit;
      built.push({ builder, items, report });
    }
    builtIds.push(...built.flatMap(b => b.items.map(i => i.id)));
    // Nothing is written before every audited id is known to be built.
    writes.push(() => writeSuite(suite, suiteBuilders, built));
  }
  checkAuditIds(options.audit ?? [], new Set(builtIds));
  for (const w of writes) w();
  return { suites: reports, files };

  function writeSuite(suite: string, suiteBuilders: TestBuilder[], built: Array<{ builder: TestBuilder; items: Item[]; report: TestReport }>): void {
    for (const { builder, items } of built) {
      write(join(privateDir, suite, `${builder.test}.jsonl`), jsonl(items), files);
      write(join(samplesDir, suite, `${builder.test}.jsonl`), jsonl(items.filter(i => i.visibility === 'public')), files);
    }
    const allItems = built.flatMap(b => b.items);
    const suiteReport: SuiteReport = { suite, seed, targetPerTest, publicPerTest, sourcesDir, tests: built.map(b => b.report) };
    reports.push(suiteReport);
    write(join(samplesDir, suite, 'ATTRIBUTION.md'), attributionMarkdown(suite, allItems.filter(i => i.visibility === 'public'), credits), files);
    write(join(reportsDir, suite, 'build-report.json'), `${JSON.stringify(suiteReport, null, 2)}\n`, files);
    write(join(reportsDir, suite, 'build-report.md'), buildReportMarkdown(suiteReport), files);
    write(join(reportsDir, suite, 'METHODOLOGY.md'), methodologyMarkdown(suite, suiteBuilders, allItems, seed), files);
  }
}

/** One paragraph per test, for `paideia suites build --help`. */
export function describeBuilders(builders: readonly TestBuilder[] = defaultBuilders): string {
  return builders.map(b => `${b.suite}/${b.test}\n  ${b.rule}`).join('\n\n');
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

// `npx tsx src/suites/build.ts [--suite NAME] [--seed N] [--target N] [--sources DIR] [--private DIR] [--samples DIR]` until the CLI verb exists.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(describeBuilders());
  } else {
    const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
    const suite = flag(args, '--suite');
    const result = await buildSuites({
      builders: suite ? defaultBuilders.filter(b => b.suite === suite) : undefined,
      seed: num(flag(args, '--seed')),
      targetPerTest: num(flag(args, '--target')),
      sourcesDir: flag(args, '--sources'),
      privateDir: flag(args, '--private'),
      samplesDir: flag(args, '--samples'),
    });
    for (const s of result.suites) for (const t of s.tests) console.log(`${s.suite}/${t.test}: ${t.items} items, ${t.public} public, ${t.shortfalls.length} shortfalls`);
  }
}
