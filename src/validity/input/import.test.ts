import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/index.js';
import { parseCsv } from './csv.js';
import { buildTable, readAnalysisFiles } from './import.js';

const csv = (text: string, file = 'f.csv') => parseCsv(new TextEncoder().encode(text), file);
const issuesOf = (f: () => unknown): string => {
  try { f(); } catch (e) { if (e instanceof ConfigError) return e.message; throw e; }
  throw new Error('expected a ConfigError');
};
const scales = () => csv('item,min,max\nq,1,3\n', 'scales.csv');
const experts = () => csv('observation,item,expert,score\no1,q,e1,2\no2,q,e1,3\n', 'experts.csv');

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks; records keep their first line', () => {
    const t = csv('a,b\n"x, y","say ""hi"""\r\n"two\nlines",z\n\n');
    expect(t.header).toEqual(['a', 'b']);
    expect(t.records).toEqual([{ line: 2, cells: ['x, y', 'say "hi"'] }, { line: 3, cells: ['two\nlines', 'z'] }]);
  });
  it('skips the rows of empty cells a spreadsheet exports below its data', () => {
    const t = csv('a,b,c\n1,2,3\n,,\n , ,\n4,5,6\n,,\n');
    expect(t.records).toEqual([{ line: 2, cells: ['1', '2', '3'] }, { line: 5, cells: ['4', '5', '6'] }]);
  });
  it('strips a BOM and rejects invalid UTF-8 with the line', () => {
    expect(parseCsv(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x31]), 'b.csv').header).toEqual(['a']);
    const bytes = new Uint8Array([...new TextEncoder().encode('a\nok\n'), 0xe9, 0x0a]);
    expect(issuesOf(() => parseCsv(bytes, 'latin.csv'))).toBe('latin.csv:3: is not valid UTF-8; re-save the file as UTF-8 (for example: iconv -f latin1 -t utf-8)');
  });
  it('names the line of a short row, an unclosed quote and a repeated header', () => {
    expect(issuesOf(() => csv('a,b\n1,2\n3\n'))).toBe('f.csv:3: has 1 field(s), the header has 2; quote fields that contain commas');
    expect(issuesOf(() => csv('a\n"open\n'))).toMatch(/^f\.csv:2: a quoted field is never closed/);
    expect(issuesOf(() => csv('a,a\n1,2\n'))).toBe('f.csv:1, field "a": column 2 repeats the header "a"');
  });
});

describe('buildTable', () => {
  it('reads ratings with repeats and unscored rows, keeps extra columns, and numeric extras become baselines', () => {
    const t = buildTable({
      ratings: csv('observation,item,rater,prompt,score,repeat,note\no1,q,m,base,2,1,x\no1,q,m,base,,2,refused\n', 'ratings.csv'),
      experts: experts(), scales: scales(),
      observations: csv('observation,unit,length\no1,u1,120\no2,u1,80\n', 'obs.csv'),
      outcomes: csv('unit,outcome,years\nu1,0.3,12\n', 'out.csv'),
    });
    expect(t.ratings).toEqual([
      { observation: 'o1', item: 'q', rater: 'm', prompt: 'base', repeat: '1', score: 2, extra: { note: 'x' } },
      { observation: 'o1', item: 'q', rater: 'm', prompt: 'base', repeat: '2', score: null, unscoredReason: 'empty score in the ratings file', extra: { note: 'refused' } },
    ]);
    expect(t.units.get('o2')).toBe('u1');
    expect(t.outcomes.get('u1')).toBe(0.3);
    expect(t.baselines.map(b => [b.name, b.level, [...b.values]])).toEqual([
      ['length', 'observation', [['o1', 120], ['o2', 80]]], ['years', 'unit', [['u1', 12]]],
    ]);
  });
  it('an experts file with rows but no score (a blank template) says to fill in the score column', () => {
    const ratings = csv('observation,item,rater,prompt,score\no1,q,m,base,2\n', 'ratings.csv');
    expect(issuesOf(() => buildTable({ ratings, scales: scales(), experts: csv('observation,item,expert,score\no1,q,e1,\no2,q,e1,\n', 'experts.csv') })))
      .toBe('experts.csv: has 2 row(s) but no score: fill in the score column (a blank score is a cell not rated yet), then run the same command again');
    expect(issuesOf(() => buildTable({ ratings, scales: scales(), experts: csv('observation,item,expert,score\n', 'experts.csv') })))
      .toBe('experts.csv: has no expert rows: one row per observation, item and expert, with a score');
  });

  it('reports every problem at once with file, line and column, and computes nothing', () => {
    const message = issuesOf(() => buildTable({
      ratings: csv('observation,item,rater,prompt,score\no1,q,m,base,x\no2,q,m,base,5\no1,z,m,base,1\no3,q,m,base,1\no3,q,m,base,2\n', 'ratings.csv'),
      experts: experts(), scales: scales(),
    }));
    expect(message.split('\n')).toEqual([
      'ratings.csv:2, field "score": (column 5) expected a number, got "x"',
      'ratings.csv:3, field "score": (column 5) 5 is outside item "q"\'s scale 1-3 (scales file line 2)',
      'ratings.csv:4, field "item": (column 2) item "z" has no row in the scales file; add "z,<min>,<max>"',
      'ratings.csv:6, field "repeat": repeats the rating on line 5 (same observation, item, rater, prompt and repeat); give each repeat its own label in a "repeat" column',
    ]);
  });
  it('a missing contract column names the header line and the expected columns', () => {
    expect(issuesOf(() => buildTable({ ratings: csv('observation,item,rater,score\n'), experts: experts(), scales: scales() })))
      .toBe('f.csv:1, field "prompt": missing column "prompt"; the header must name observation,item,rater,prompt,score (optional: repeat), got observation,item,rater,score');
  });
  it('scales need max above min, said once: the rows rated on that item are not also told it has no scale', () => {
    expect(issuesOf(() => buildTable({ ratings: csv('observation,item,rater,prompt,score\no1,q,m,b,1\n'), experts: experts(), scales: csv('item,min,max\nq,3,3\n', 's.csv') })).split('\n'))
      .toEqual(['s.csv:2, field "max": (column 3) must be above min (3), got 3']);
    expect(issuesOf(() => buildTable({ ratings: csv('observation,item,rater,prompt,score\no1,q,m,b,1\n'), experts: experts(), scales: csv('item,min,max\nq,low,3\n', 's.csv') })).split('\n'))
      .toEqual(['s.csv:2, field "min": (column 2) expected a number, got "low"']);
  });
});

describe('readAnalysisFiles', () => {
  it('names what makes each file unreadable as CSV, every file at once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-validity-files-'));
    const at = (name: string, text: string) => { writeFileSync(join(dir, name), text); return join(dir, name); };
    const message = issuesOf(() => readAnalysisFiles({
      ratings: at('ratings.csv', 'observation,item,rater,prompt,score\no1,q,m,b\n'),
      experts: at('experts.csv', 'observation,item,expert,score\no1,q,e1,3\no3,q,e1\n'),
      scales: at('scales.csv', 'item,min,max\n"q,1,3\n'),
    }));
    expect(message.split('\n')).toEqual([
      `${join(dir, 'ratings.csv')}:2: has 4 field(s), the header has 5; quote fields that contain commas`,
      `${join(dir, 'experts.csv')}:3: has 3 field(s), the header has 4; quote fields that contain commas`,
      `${join(dir, 'scales.csv')}:2: a quoted field is never closed; add the closing "`,
    ]);
  });
});
