import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/index.js';
import { loadStudyFile } from './load.js';

const dir = mkdtempSync(join(tmpdir(), 'paideia-study-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
function issuesOf(f: () => unknown): Array<{ line?: number; field?: string; message: string; file?: string }> {
  try { f(); } catch (e) { if (e instanceof ConfigError) return e.issues; throw e; }
  throw new Error('expected a ConfigError');
}

const ITEMS = `items:
  - id: uptake
    construct: builds on what the student said
    scale: { min: 1, max: 3 }
    levels: { 1: none, 3: clear uptake }
`;

describe('loadStudyFile', () => {
  it('reads inline observations, items, families (default all three) and raters', () => {
    const s = loadStudyFile(file('ok.yaml', `name: s1\nobservations:\n  - { id: o1, text: "T: hi", unit: u1 }\n  - { id: o2, text: "T: bye" }\n${ITEMS}raters:\n  a: openai:m-a\n  b: ollama:m-b\nparams: { max_tokens: 50 }\n`));
    expect(s.observations).toEqual([{ id: 'o1', text: 'T: hi', unit: 'u1' }, { id: 'o2', text: 'T: bye' }]);
    expect(s.families).toEqual(['base', 'cot', 'rubric']);
    expect(s.raters.map(r => [r.alias, r.spec])).toEqual([['a', 'openai:m-a'], ['b', 'ollama:m-b']]);
    expect(s.params).toEqual({ maxTokens: 50 });
    expect(s.repeats).toBe(1);
  });

  it('names the YAML line and field of every problem at once', () => {
    const issues = issuesOf(() => loadStudyFile(file('bad.yaml', `name: s1\nobservations:\n  - { id: o1, text: hi }\n  - { id: o1, text: again }\nitems:\n  - id: uptake\n    construct: x\n    scale: { min: 1, max: 3 }\n    levels: { 4: too high }\nfamilies: [base, cto]\nraters:\n  a: gpt-4\nrepeets: 2\n`)));
    const byField = new Map(issues.map(i => [i.field, i]));
    expect(byField.get('families.1')).toMatchObject({ line: 10 });
    expect(byField.get('repeets')).toMatchObject({ line: 13, message: expect.stringContaining('did you mean "repeats"') });
    // zod's problems come first; the rest (levels, specs, duplicate ids) once the shape is right.
    const second = issuesOf(() => loadStudyFile(file('bad2.yaml', `name: s1\nobservations:\n  - { id: o1, text: hi }\n  - { id: o1, text: again }\nitems:\n  - id: uptake\n    construct: x\n    scale: { min: 1, max: 3 }\n    levels: { 4: too high }\nraters:\n  a: gpt-4\n`)));
    expect(second.find(i => i.field === 'items.0.levels.4')).toMatchObject({ line: 9, message: expect.stringContaining('outside the scale 1-3') });
    expect(second.find(i => i.field === 'raters.a')).toMatchObject({ line: 11, message: expect.stringContaining('no provider prefix') });
    expect(second.find(i => i.message.includes('"o1" is listed twice'))).toBeDefined();
  });

  it('reads observations from a CSV or JSONL file beside it, with file and line in errors', () => {
    file('obs.csv', 'id,text,unit\no1,"Teacher: what do you notice?\nStudent: it doubles",t1\no2,Teacher: next,t1\n');
    const csv = loadStudyFile(file('csv.yaml', `name: s1\nobservations: { file: obs.csv }\n${ITEMS}raters: { a: "openai:m" }\n`));
    expect(csv.observations).toEqual([{ id: 'o1', text: 'Teacher: what do you notice?\nStudent: it doubles', unit: 't1' }, { id: 'o2', text: 'Teacher: next', unit: 't1' }]);
    expect(csv.source).toEqual({ type: 'file', file: join(dir, 'obs.csv') });
    file('obs.jsonl', '{"id": "o1", "text": "a"}\n{"id": "o2"}\nnot json\n');
    const issues = issuesOf(() => loadStudyFile(file('jsonl.yaml', `name: s1\nobservations: { file: obs.jsonl }\n${ITEMS}raters: { a: "openai:m" }\n`)));
    expect(issues.map(i => [i.file, i.line, i.field]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([[join(dir, 'obs.jsonl'), 2, 'text'], [join(dir, 'obs.jsonl'), 3, undefined]]);
    file('bad.csv', 'id,words\no1,x\n');
    expect(issuesOf(() => loadStudyFile(file('badcsv.yaml', `name: s1\nobservations: { file: bad.csv }\n${ITEMS}raters: { a: "openai:m" }\n`)))[0]).toMatchObject({ line: 1, field: 'text', message: expect.stringContaining('missing column "text"') });
  });

  it('takes observations from a stored run (the file or --observations-run), and says how when there are none', () => {
    expect(loadStudyFile(file('run.yaml', `name: s1\nobservations: { run: scn-1 }\n${ITEMS}raters: { a: "openai:m" }\n`)).source).toEqual({ type: 'run', runId: 'scn-1' });
    const none = `name: s1\n${ITEMS}raters: { a: "openai:m" }\n`;
    expect(loadStudyFile(file('flag.yaml', none), { observationsRun: 'scn-2' }).source).toEqual({ type: 'run', runId: 'scn-2' });
    expect(issuesOf(() => loadStudyFile(file('none.yaml', none)))[0]!.message).toMatch(/--observations-run/);
  });
});
