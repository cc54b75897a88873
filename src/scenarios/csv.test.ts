import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv.js';

describe('parseCsv', () => {
  it('reads plain and quoted fields, doubled quotes, commas and line breaks inside quotes', () => {
    const text = 'persona,question\r\nAna,"What is 2, plus 2?"\n"Ben ""the brave""","Line one\nline two"\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['persona', 'question'] },
      { line: 2, fields: ['Ana', 'What is 2, plus 2?'] },
      { line: 3, fields: ['Ben "the brave"', 'Line one\nline two'] },
    ]);
  });
  it('keeps empty fields, skips blank lines and a byte-order mark, reads a last line without newline', () => {
    expect(parseCsv('\uFEFFa,b,c\n\n1,,3\n"",x,')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 3, fields: ['1', '', '3'] },
      { line: 4, fields: ['', 'x', ''] },
    ]);
  });
  it('counts lines inside quoted fields for the next record', () => {
    expect(parseCsv('a\n"x\ny\nz"\nb').map(r => r.line)).toEqual([1, 2, 5]);
  });
  it.each([
    ['a,b\n1,"open\n2,3', 2, /never closed/],
    ['a,b\n1,x"y"', 2, /quote inside an unquoted field/],
    ['a,b\n"x"y,1', 2, /after a closing quote/],
  ])('reports bad CSV with its line: %j', (text, line, message) => {
    let error: unknown;
    try { parseCsv(text); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect((error as CsvSyntaxError).line).toBe(line);
    expect((error as CsvSyntaxError).message).toMatch(message);
  });
});
