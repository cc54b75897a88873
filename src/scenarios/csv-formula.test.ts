import { describe, expect, it } from 'vitest';
import { formatCsv, parseCsv, restoreCell } from './csv.js';

describe('CSV exports and spreadsheet formulas', () => {
  const hostile = ['=HYPERLINK("http://evil","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR', 'plain', "'quoted", ''];

  it('neutralises a formula start in every cell, headers included', () => {
    const csv = formatCsv([hostile, hostile]);
    for (const record of parseCsv(csv)) {
      for (const field of record.fields) expect(field).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(parseCsv(csv)[0]!.fields.slice(0, 4)).toEqual(["'=HYPERLINK(\"http://evil\",\"x\")", "'+1+1", "'-2+3", "'@SUM(A1)"]);
  });

  it('reads back exactly what was written once restored', () => {
    expect(parseCsv(formatCsv([hostile]))[0]!.fields.map(restoreCell)).toEqual(hostile);
  });
});
