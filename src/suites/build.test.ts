import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../core/item.js';
import type { TestBuilder } from './builder.js';
import { buildSuites, describeBuilders, defaultBuilders, itemLine, type BuildSuitesResult } from './build.js';
import { irishBuilders } from './irish/index.js';
import { loadItems } from './load.js';

const tmp = mkdtempSync(join(tmpdir(), 'suites-build-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

const dirs = (root: string) => ({ privateDir: join(root, 'private'), samplesDir: join(root, 'samples') });
const lines = (path: string): Item[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l) as Item);

describe('buildSuites with the shipped sources', () => {
  let first: BuildSuitesResult;
  beforeAll(async () => {
    first = await buildSuites(dirs(join(tmp, 'a')));
    await buildSuites(dirs(join(tmp, 'b')));
  }, 120_000);

  it('writes byte-identical files when built twice with the same sources and seed', () => {
    const a = filesUnder(join(tmp, 'a'));
    const b = filesUnder(join(tmp, 'b'));
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [path, bytes] of a) expect(bytes.equals(b.get(path)!), path).toBe(true);
    expect(a.size).toBe(first.files.length);
  });

  it('writes the full set privately and 20 public items per test as samples', () => {
    for (const suite of first.suites) {
      for (const t of suite.tests) {
        const full = lines(join(tmp, 'a', 'private', suite.suite, `${t.test}.jsonl`));
        const sample = lines(join(tmp, 'a', 'samples', suite.suite, `${t.test}.jsonl`));
        expect(full.filter(i => i.visibility === 'public').map(i => i.id)).toEqual(sample.map(i => i.id));
        expect(sample).toHaveLength(20);
        expect(t).toMatchObject({ items: full.length, public: 20, private: full.length - 20 });
        if (suite.suite === 'irish') expect(full.length, `${suite.suite}/${t.test}`).toBe(200);
      }
    }
  });

  it('writes LF-only JSONL with a final newline and a fixed key order that the item loader accepts', () => {
    const samples = join(tmp, 'a', 'samples', 'irish');
    const text = readFileSync(join(samples, 'grammar_forms.jsonl'), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.includes('\r')).toBe(false);
    expect(Object.keys(JSON.parse(text.split('\n')[0]!)).slice(0, 4)).toEqual(['id', 'test', 'language', 'input']);
    const tests = first.suites.flatMap(x => x.tests);
    expect(loadItems([join(tmp, 'a', 'samples')]).length).toBe(tests.reduce((n, t) => n + t.public, 0));
    expect(loadItems([join(tmp, 'a', 'private')]).length).toBe(tests.reduce((n, t) => n + t.items, 0));
  });

  it('writes the build report, methodology and attribution for each suite', () => {
    const irish = join(tmp, 'a', 'samples', 'irish');
    const report = JSON.parse(readFileSync(join(irish, 'build-report.json'), 'utf8'));
    expect(report).toMatchObject({ suite: 'irish', seed: 20261129, targetPerTest: 200 });
    expect(report.tests.map((t: { test: string }) => t.test)).toEqual(['grammar_forms', 'translation', 'round_trip', 'tutor_accuracy']);
    const md = readFileSync(join(irish, 'build-report.md'), 'utf8');
    expect(md).toContain('| `grammar_forms` | 200 | 20 | ga 200 | none 200 | bunamo-form 200 | 0 |');
    expect(md).toContain('slots with a form equal to the lemma');
    const method = readFileSync(join(irish, 'METHODOLOGY.md'), 'utf8');
    for (const b of irishBuilders) expect(method).toContain(b.rule);
    for (const label of ['bunamo-form', 'corpus-reference', 'distractor-derived-unverified', 'planted-typo']) expect(method).toContain(`| \`${label}\` |`);
    const attribution = readFileSync(join(irish, 'ATTRIBUTION.md'), 'utf8');
    expect(attribution).toContain('Contains information from the Irish National Morphology Database');
    expect(attribution).toContain('Contains information from the Irish Sentence Bank');
    expect(attribution).toContain('| `potaL` |');
    const english = readFileSync(join(tmp, 'a', 'samples', 'english', 'ATTRIBUTION.md'), 'utf8');
    expect(english).toContain('CC BY 4.0');
  });
});

describe('buildSuites edge cases', () => {
  it('gives other items for another seed', async () => {
    const a = await buildSuites({ ...dirs(join(tmp, 's1')), builders: irishBuilders.slice(0, 1), seed: 1, targetPerTest: 30 });
    const b = await buildSuites({ ...dirs(join(tmp, 's2')), builders: irishBuilders.slice(0, 1), seed: 2, targetPerTest: 30 });
    expect(a.suites[0]!.tests[0]!.items).toBe(30);
    const ids = (root: string) => lines(join(root, 'private', 'irish', 'grammar_forms.jsonl')).map(i => i.id);
    expect(ids(join(tmp, 's1'))).not.toEqual(ids(join(tmp, 's2')));
  });

  it('reports shortfalls and writes empty item files when the sources are missing', async () => {
    const root = join(tmp, 'missing');
    const r = await buildSuites({ ...dirs(root), sourcesDir: join(root, 'no-sources'), builders: irishBuilders });
    for (const t of r.suites[0]!.tests) {
      expect(t.items).toBe(0);
      expect(t.shortfalls.map(s => s.reason).join(' ')).toMatch(/no (BÚNaMo|Irish Sentence Bank) folder/);
    }
    expect(readFileSync(join(root, 'samples', 'irish', 'translation.jsonl'), 'utf8')).toBe('');
    expect(readFileSync(join(root, 'samples', 'irish', 'build-report.md'), 'utf8')).toContain('wanted 200, got 0');
  });

  const item = (id: string, topic: string): Item => ({
    id, test: 'fake', language: 'xx', input: {}, accepted: ['a'], source: 'k', licence: 'CC0-1.0', evidence: 'made-up',
    visibility: 'private', contamination: 'private', human_checked: false, topic,
  });

  it('picks the public sample itself for a builder that marks none, evenly over topics', async () => {
    const fake: TestBuilder = { suite: 'fake', test: 'fake', rule: 'test rule', build: () => ({ items: Array.from({ length: 40 }, (_, i) => item(`f${i}`, i % 2 ? 'odd' : 'even')), shortfalls: [] }) };
    const r = await buildSuites({ ...dirs(join(tmp, 'fake')), builders: [fake] });
    const sample = lines(join(tmp, 'fake', 'samples', 'fake', 'fake.jsonl'));
    expect(sample).toHaveLength(20);
    expect(sample.filter(i => i.topic === 'odd')).toHaveLength(10);
    expect(r.suites[0]!.tests[0]!.public).toBe(20);
    expect(readFileSync(join(tmp, 'fake', 'samples', 'fake', 'METHODOLOGY.md'), 'utf8')).toContain('(no description registered');
  });

  it('stops before writing anything when a builder emits an invalid or duplicate item', async () => {
    const bad: TestBuilder = { suite: 'bad', test: 'fake', rule: 'r', build: () => ({ items: [item('x', 't'), item('x', 't'), { ...item('y', 't'), accepted: [] }], shortfalls: [] }) };
    await expect(buildSuites({ ...dirs(join(tmp, 'bad')), builders: [bad] })).rejects.toThrow(/x: duplicate id[\s\S]*y: accepted/);
  });
});

describe('helpers', () => {
  it('describes every builder for the CLI help', () => {
    const text = describeBuilders();
    for (const b of defaultBuilders) expect(text).toContain(`${b.suite}/${b.test}\n  ${b.rule}`);
  });

  it('puts design.md fields first in a fixed order and other fields after them by name', () => {
    const line = itemLine({ zeta: 1, notes: 'n', id: 'i', alpha: 2, test: 't' } as unknown as Item);
    expect(line).toBe('{"id":"i","test":"t","notes":"n","alpha":2,"zeta":1}');
  });
});
