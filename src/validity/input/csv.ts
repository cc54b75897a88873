import { ConfigError, type ConfigIssue } from '../../core/index.js';

/** One parsed CSV record with the line it starts on (1-based, the header is line 1). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export interface CsvTable {
  file: string;
  header: string[];
  records: CsvRecord[];
}

/**
 * Reads RFC 4180 CSV (quoted fields may hold commas, quotes as "" and line breaks) from bytes that
 * must be UTF-8. Any problem throws a ConfigError naming the file and line, so no caller ever sees
 * a half-read file.
 */
export function parseCsv(bytes: Uint8Array, file: string): CsvTable {
  const text = decodeUtf8(bytes, file).replace(/^\uFEFF/, '');
  const rows: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    // A record holding nothing at all is skipped: a trailing newline, blank separator lines, and the
    // rows of empty cells (,,,) that spreadsheets export below their data.
    if (!cells.every(c => c.trim() === '')) rows.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i += 2; continue; }
      if (ch === '"') {
        quoted = false;
        const next = text[i + 1];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new ConfigError([{ file, line, message: `text after a closing quote in field ${cells.length + 1}; quote the whole field and write an inner quote as ""` }]);
        }
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') { cells.push(cell); cell = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else cell += ch;
    i++;
  }
  if (quoted) throw new ConfigError([{ file, line: start, message: 'a quoted field is never closed; add the closing "' }]);
  if (cell !== '' || cells.length > 0) endRecord();
  if (rows.length === 0) throw new ConfigError([{ file, line: 1, message: 'is empty; expected a header row' }]);
  const [head, ...records] = rows;
  const header = head!.cells.map(h => h.trim());
  const issues: ConfigIssue[] = [];
  header.forEach((h, k) => {
    if (h === '') issues.push({ file, line: 1, field: `column ${k + 1}`, message: 'has an empty header name' });
    else if (header.indexOf(h) !== k) issues.push({ file, line: 1, field: h, message: `column ${k + 1} repeats the header "${h}"` });
  });
  for (const r of records) {
    if (r.cells.length !== header.length) {
      issues.push({ file, line: r.line, message: `has ${r.cells.length} field(s), the header has ${header.length}; quote fields that contain commas` });
    }
  }
  if (issues.length) throw new ConfigError(issues.slice(0, 20));
  return { file, header, records };
}

/** Strict UTF-8: an invalid byte is reported with its line, never replaced by U+FFFD. */
function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    let good = 0;
    const decoder = new TextDecoder('utf-8', { fatal: true });
    // Find the first bad byte: the longest prefix that decodes (binary search over lengths would
    // split characters, so walk forward line by line).
    let line = 1;
    for (let k = 0; k < bytes.length; k++) {
      if (bytes[k] !== 0x0a) continue;
      try { decoder.decode(bytes.subarray(good, k + 1)); } catch { break; }
      good = k + 1;
      line++;
    }
    throw new ConfigError([{ file, line, message: 'is not valid UTF-8; re-save the file as UTF-8 (for example: iconv -f latin1 -t utf-8)' }]);
  }
}
