/** A CSV record with the 1-based line it starts on (quoted fields may span lines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * RFC 4180 CSV: comma-separated, fields optionally in double quotes, `""` for a quote inside a
 * quoted field, which may also hold commas and line breaks. CRLF and LF both end records; a
 * leading byte-order mark and blank lines are skipped. A stray quote is an error, not a guess.
 */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quotedField = false;
  let recordQuoted = false;
  const endField = () => { fields.push(field); field = ''; quotedField = false; };
  const endRecord = () => {
    endField();
    if (!(fields.length === 1 && fields[0] === '' && !recordQuoted)) records.push({ line: recordLine, fields });
    fields = [];
    recordQuoted = false;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '"') {
      if (field !== '' || quotedField) throw new CsvSyntaxError('a quote inside an unquoted field; quote the whole field and double the quote ("")', line);
      quotedField = true;
      recordQuoted = true;
      const openedAt = line;
      i++;
      for (;;) {
        if (i >= src.length) throw new CsvSyntaxError('a quoted field is never closed', openedAt);
        const d = src[i]!;
        if (d === '"') {
          if (src[i + 1] === '"') { field += '"'; i += 2; continue; }
          i++;
          break;
        }
        if (d === '\n') line++;
        field += d;
        i++;
      }
      const after = src[i];
      if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') {
        throw new CsvSyntaxError(`unexpected "${after}" after a closing quote; expected a comma or the end of the line`, line);
      }
      continue;
    }
    if (c === ',') { endField(); i++; continue; }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      continue;
    }
    if (quotedField) throw new CsvSyntaxError(`unexpected "${c}" after a closing quote`, line);
    field += c;
    i++;
  }
  if (field !== '' || fields.length > 0 || quotedField) endRecord();
  return records;
}

/** Leading characters that make a spreadsheet read a cell as a formula (`=HYPERLINK(...)`, `@SUM`, `-2+3`). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell a spreadsheet will show as text: one that would start a formula gets a leading `'`
 * (the OWASP advice), which spreadsheets hide and restoreCell removes on import.
 */
export function neutraliseCell(f: string): string {
  return FORMULA_START.test(f) ? `'${f}` : f;
}

/** The cell as written before neutraliseCell. */
export function restoreCell(f: string): string {
  return f.startsWith("'") && FORMULA_START.test(f.slice(1)) ? f.slice(1) : f;
}

/**
 * RFC 4180 CSV: a field is quoted when it holds a comma, a quote, a line break or leading/trailing
 * space (spreadsheets trim those), quotes doubled; CRLF between records, as the RFC and
 * spreadsheet programs expect. Every cell, headers included, is neutralised (neutraliseCell), so
 * parseCsv plus restoreCell reads it back unchanged.
 */
export function formatCsv(records: ReadonlyArray<ReadonlyArray<string>>): string {
  const cell = (raw: string) => {
    const f = neutraliseCell(raw);
    return /[",\r\n]|^\s|\s$/.test(f) ? `"${f.replace(/"/g, '""')}"` : f;
  };
  return records.map(r => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
