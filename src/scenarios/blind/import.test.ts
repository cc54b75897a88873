import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandHint } from '../../core/command-hint.js';
import { ConfigError } from '../../core/errors.js';
import type { Store } from '../../core/store.js';
import { openStore } from '../../store/index.js';
import { formatCsv, parseCsv } from '../csv.js';
import { analysisRun } from '../testing/analysis-run.js';
import { scenarioDir } from '../testing/fixtures.js';
import { parseValue, type RubricColumn } from './columns.js';
import type { BlindKey } from './export.js';
import { importHumanScores } from './import.js';
import { writeBlindExport } from './write.js';

async function exported(format: 'csv' | 'labelstudio' = 'csv') {
  const store = await openStore('sqlite::memory:');
  const runId = await analysisRun(store);
  const dir = scenarioDir({});
  const w = await writeBlindExport(store, runId, { format, out: join(dir, format === 'csv' ? 'blind.csv' : 'tasks.json'), seed: 11 });
  const key = JSON.parse(readFileSync(w.keyFile, 'utf8')) as BlindKey;
  return { store, runId, dir, w, key };
}

/** The export with the expert's values filled in (`fill(row index) -> [a, b, comment]`); returns the file. */
function fillCsv(from: string, to: string, fill: (i: number, row: string[]) => string[] | undefined): string {
  const [header, ...rows] = parseCsv(readFileSync(from, 'utf8')).map(r => r.fields);
  writeFileSync(to, formatCsv([header!, ...rows.map((r, i) => [...r.slice(0, 3), ...(fill(i, r) ?? ['', '', ''])])]));
  return to;
}

async function importIssues(store: Store, runId: string, o: Parameters<typeof importHumanScores>[2]): Promise<ConfigError['issues']> {
  try {
    await importHumanScores(store, runId, o);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('import of expert scores', () => {
  it('CSV round trip: scores land on the right dialogues as human:<rater>, weighted like the judges; blank rows are skipped', async () => {
    const { store, runId, dir, w, key } = await exported();
    const file = fillCsv(w.out, join(dir, 'anna.csv'), i => (i === 3 ? undefined : [String(i + 2), String(10 - i), i === 0 ? 'clear, "kind"\nbut long' : '']));
    expect(await importHumanScores(store, runId, { file, rater: 'anna' })).toEqual({ scorer: 'human:anna', imported: 3, skipped: 1 });
    const scores = (await store.listScores(runId)).filter(s => s.scorer.name === 'human:anna');
    expect(scores).toHaveLength(3);
    const version = (await store.listScores(runId)).find(s => s.scorer.name === 'judge:rubric')!.scorer.version;
    for (const [i, item] of key.items.slice(0, 3).entries()) {
      const s = scores.find(x => x.trialId === item.trialId)!;
      expect(s.scorer).toEqual({ name: 'human:anna', version, args: { rater: 'anna', exportId: w.exportId, file: 'anna.csv' } });
      expect(s.details?.fields).toEqual({ a: i + 2, b: 10 - i });
      expect(s.value).toBeCloseTo(((i + 2) / 10 + (10 - i) / 10) / 2, 12);
      expect(s.details?.dimensions).toEqual({ A: (i + 2) / 10, B: (10 - i) / 10 });
    }
    expect(scores.find(x => x.trialId === key.items[0]!.trialId)!.details?.comment).toBe('clear, "kind"\nbut long');
    // Importing again replaces, never duplicates.
    await importHumanScores(store, runId, { file, rater: 'anna' });
    expect((await store.listScores(runId)).filter(s => s.scorer.name === 'human:anna')).toHaveLength(3);
    await store.close();
  });

  it('Label Studio round trip: the full JSON export (rating/number results) and JSON-MIN, with a key file instead of the stored key', async () => {
    const { store, runId, dir, w, key } = await exported('labelstudio');
    const tasks = JSON.parse(readFileSync(w.out, 'utf8')) as Array<{ data: { paideia_id: string } }>;
    const full = tasks.map((t, i) => ({
      id: 100 + i, data: t.data,
      annotations: [
        { id: 1, completed_by: 7, was_cancelled: true, result: [] },
        ...(i === 2 ? [] : [{ id: 2, completed_by: 7, was_cancelled: false, result: [
          { from_name: 'a', to_name: 'transcript', type: 'number', value: { number: i } },
          { from_name: 'b', to_name: 'transcript', type: 'number', value: { number: 9 } },
          { from_name: 'comment', to_name: 'transcript', type: 'textarea', value: { text: ['fine'] } },
        ] }]),
      ],
    }));
    const file = join(dir, 'export.json');
    writeFileSync(file, JSON.stringify(full, null, 2));
    expect(await importHumanScores(store, runId, { file, rater: 'ben', keyFile: w.keyFile })).toEqual({ scorer: 'human:ben', imported: 3, skipped: 1 });
    const ben = (await store.listScores(runId)).filter(s => s.scorer.name === 'human:ben');
    const first = ben.find(s => s.trialId === key.items.find(k => k.id === tasks[0]!.data.paideia_id)!.trialId)!;
    expect(first.details).toMatchObject({ fields: { a: 0, b: 9 }, comment: 'fine', source: { file: 'export.json', row: 1 } });

    const min = tasks.map((t, i) => ({ ...t.data, a: 5, b: i, annotator: 7 }));
    const minFile = join(dir, 'min.json');
    writeFileSync(minFile, JSON.stringify(min));
    expect(await importHumanScores(store, runId, { file: minFile, rater: 'cy' })).toMatchObject({ imported: 4, skipped: 0 });
    await store.close();
  });

  it('reports every bad row at once with file, line and column, and stores nothing', async () => {
    const { store, runId, dir, w, key } = await exported();
    const [header, ...rows] = parseCsv(readFileSync(w.out, 'utf8')).map(r => r.fields);
    const file = join(dir, 'bad.csv');
    const line = (id: string, a: string, b: string) => [id, 't', 'x', a, b, ''];
    writeFileSync(file, formatCsv([
      header!,
      line(rows[0]![0]!, '11', '2'), // line 2: out of scale
      line(rows[1]![0]!, '2.5', 'x'), // line 3: fraction, not a number
      line(rows[2]![0]!, '', '4'), // line 4: missing value
      line('', '3', '3'), // line 5: scores without id
      line('d-0000000000', '3', '3'), // line 6: unknown id
      line(rows[3]![0]!, '3', '3'), // line 7: good
      line(rows[3]![0]!, '4', '4'), // line 8: duplicate
      ['d-1', '1'], // line 9: wrong field count
      line(rows[1]![0]!, '', ''), // line 10: blank, skipped
    ]));
    const issues = await importIssues(store, runId, { file, rater: 'anna' });
    expect(issues.map(i => [i.line, i.field, i.message])).toEqual([
      [9, undefined, 'the row has 2 fields, the header 6; quote values that hold commas or line breaks'],
      [2, 'a', '"11" is outside the scale 0 to 10'],
      [3, 'a', 'expected a whole number from 0 to 10, got "2.5"'],
      [3, 'b', 'expected a whole number from 0 to 10, got "x"'],
      [4, 'a', 'no value; expected a whole number from 0 to 10 (or leave the whole row empty to skip it)'],
      [5, 'id', 'the row has scores but no id; keep the id column of the export'],
      [6, 'id', `id "d-0000000000" is not in any blind export of run ${runId}; was the file exported from another run?`],
      [8, 'id', `id "${key.items[3]!.id}" was already scored at line 7`],
    ]);
    expect(issues.every(i => i.file === file)).toBe(true);
    expect((await store.listScores(runId)).filter(s => s.scorer.name.startsWith('human:'))).toEqual([]);
    await store.close();
  });

  it('names the file problem: unreadable, unknown type, CSV syntax, empty, missing columns, bad JSON, wrong JSON shape, two annotators', async () => {
    const { store, runId, dir } = await exported();
    const at = (name: string, text: string) => { const f = join(dir, name); writeFileSync(f, text); return f; };
    const one = async (file: string) => (await importIssues(store, runId, { file, rater: 'anna' })).map(i => ({ line: i.line, field: i.field, message: i.message }));
    expect((await one(join(dir, 'none.csv')))[0]!.message).toMatch(/^cannot read the scores: ENOENT/);
    expect(await one(at('s.xlsx', 'x'))).toEqual([{ line: undefined, field: undefined, message: 'expected a .csv file (the export, filled in) or a .json Label Studio export, got ".xlsx"' }]);
    expect(await one(at('q.csv', 'id,a,b\nd-1,"3"x,4\n'))).toEqual([{ line: 2, field: undefined, message: 'CSV syntax: unexpected "x" after a closing quote; expected a comma or the end of the line' }]);
    expect(await one(at('e.csv', ''))).toEqual([{ line: undefined, field: undefined, message: 'the file is empty; expected the header row of the export' }]);
    expect(await one(at('h.csv', 'id,task,A\n'))).toEqual([
      { line: 1, field: 'a', message: 'the header has no column "a"; expected the columns of the export: id, a, b' },
      { line: 1, field: 'b', message: 'the header has no column "b"; expected the columns of the export: id, a, b' },
    ]);
    const badJson = await one(at('j.json', '[\n  {"data": {}},\n  oops\n]'));
    expect(badJson).toHaveLength(1);
    expect(badJson[0]!.message).toMatch(/^not valid JSON \([\s\S]*\); expected a Label Studio JSON export$/);
    expect(await one(at('o.json', '{"tasks": []}'))).toEqual([{ line: undefined, field: undefined, message: 'expected a Label Studio JSON export: a list of tasks ([{"data": ..., "annotations": [...]}, ...])' }]);
    const twice = { data: { paideia_id: 'd-x' }, annotations: [{ completed_by: 1, result: [] }, { completed_by: 2, result: [] }] };
    expect(await one(at('t.json', JSON.stringify([5, twice])))).toEqual([
      { line: undefined, field: 'row 1', message: 'expected a task object' },
      { line: undefined, field: 'row 2.annotations', message: 'the task has 2 annotations (by 1, 2); import one annotator per --rater (filter the export by annotator in Label Studio)' },
    ]);
    const lsBad = [{ data: { paideia_id: 'd-nope' }, annotations: [{ completed_by: 1, result: [{ from_name: 'a', value: { rating: 3 } }] }] }];
    expect(await one(at('v.json', JSON.stringify(lsBad)))).toEqual([
      { line: undefined, field: 'row 1.id', message: `id "d-nope" is not in any blind export of run ${runId}; was the file exported from another run?` },
    ]);
    await store.close();
  });

  it('checks the rater, the run and the key before reading rows', async () => {
    const { store, runId, dir, w, key } = await exported();
    const file = fillCsv(w.out, join(dir, 'ok.csv'), () => ['1', '1', '']);
    const first = async (o: Partial<Parameters<typeof importHumanScores>[2]>, run = runId) => (await importIssues(store, run, { file, rater: 'anna', ...o }))[0]!;
    expect(await first({ rater: 'an na/' })).toMatchObject({ field: '--rater', message: '"an na/" is not a rater name: use letters, digits, _ . @ - (e.g. --rater anna.k)' });
    expect((await first({}, 'scn-nope')).message).toBe(`no run "scn-nope" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}`);
    const keyAt = (name: string, value: unknown) => { const f = join(dir, name); writeFileSync(f, typeof value === 'string' ? value : JSON.stringify(value)); return f; };
    expect((await first({ keyFile: join(dir, 'missing.json') })).message).toMatch(/^cannot read the key file: ENOENT/);
    expect((await first({ keyFile: keyAt('k1.json', { kind: 'other' }) })).message).toBe('not a Paideia blind-export key (kind paideia.blind-key.v1)');
    expect((await first({ keyFile: keyAt('k2.json', { ...key, runId: 'scn-other' }) })).message).toBe(`the key belongs to run scn-other, not ${runId}`);
    expect((await first({ keyFile: keyAt('k3.json', { ...key, evaluation: { ...key.evaluation, version: 'old' } }) })).message).toBe(`the key was made for rubric version old; the run's rubric is now ${key.evaluation.version}`);
    // A run nobody exported has no ids to map.
    const other = await openStore('sqlite::memory:');
    const otherRun = await analysisRun(other);
    expect((await importIssues(other, otherRun, { file, rater: 'anna' }))[0]!.message).toBe(`run ${otherRun} has no blind export of its current rubric; export one first (${commandHint(['scenario', 'export', otherRun, '--out', 'blind.csv'], other.url)}), or pass --key <private key file>`);
    // With the key file it imports (run ids are content hashes, so a copy of the run has the same id).
    expect(otherRun).toBe(runId);
    expect(await importHumanScores(other, otherRun, { file, rater: 'anna', keyFile: w.keyFile })).toEqual({ scorer: 'human:anna', imported: 4, skipped: 0 });
    await Promise.all([store.close(), other.close()]);
  });

  it('parses values strictly: bools as 1/0, yes/no, true/false; numbers within the scale; no rounding', () => {
    const bool: RubricColumn = { column: 'ok', control: 'ok', path: ['ok'], dimension: 'D', type: 'bool', min: 0, max: 1 };
    const float: RubricColumn = { ...bool, type: 'float', min: 0, max: 1 };
    expect(['1', 'YES', 'true', 1, true].map(v => parseValue(v, bool))).toEqual(Array(5).fill({ ok: true, value: true }));
    expect(['0', 'no', 'False', 0, false].map(v => parseValue(v, bool))).toEqual(Array(5).fill({ ok: true, value: false }));
    expect(parseValue('maybe', bool)).toEqual({ ok: false, problem: 'expected 1/0, yes/no or true/false, got "maybe"' });
    expect(parseValue(' 0.25 ', float)).toEqual({ ok: true, value: 0.25 });
    expect(parseValue(1.5, float)).toEqual({ ok: false, problem: '1.5 is outside the scale 0 to 1' });
    expect(parseValue([3], float)).toEqual({ ok: false, problem: 'expected a number from 0 to 1, got [3]' });
  });
});

