import type { ConfigIssue } from '../../core/index.js';
import type { CsvRecord, CsvTable } from './csv.js';

/** A CSV table whose contract columns are known to exist, read cell by cell with located issues. */
export class CsvReader {
  readonly issues: ConfigIssue[] = [];
  private readonly index: Map<string, number>;
  constructor(readonly table: CsvTable, required: readonly string[], optional: readonly string[] = []) {
    this.index = new Map(table.header.map((h, k) => [h, k]));
    for (const name of required) {
      if (!this.index.has(name)) {
        this.issues.push({ file: table.file, line: 1, field: name, message: `missing column "${name}"; the header must name ${required.join(',')}${optional.length ? ` (optional: ${optional.join(',')})` : ''}, got ${table.header.join(',')}` });
      }
    }
    this.known = new Set([...required, ...optional]);
  }
  private readonly known: Set<string>;

  has(name: string): boolean {
    return this.index.has(name);
  }

  /** Columns beyond the contract, in file order. */
  extraColumns(): string[] {
    return this.table.header.filter(h => !this.known.has(h));
  }

  text(r: CsvRecord, name: string, allowEmpty = false): string {
    const k = this.index.get(name);
    const v = k === undefined ? '' : r.cells[k]!.trim();
    if (v === '' && !allowEmpty && k !== undefined) this.problem(r, name, 'is empty; every row needs a value here');
    return v;
  }

  /** A finite number, or null for an empty cell when `allowEmpty` (an unscored rating). */
  number(r: CsvRecord, name: string, allowEmpty = false): number | null {
    const v = this.text(r, name, allowEmpty);
    if (v === '') return null;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v)) {
      this.problem(r, name, `expected a number, got "${v}"`);
      return null;
    }
    return Number(v);
  }

  extra(r: CsvRecord): Record<string, string> | undefined {
    const cols = this.extraColumns();
    if (!cols.length) return undefined;
    return Object.fromEntries(cols.map(c => [c, r.cells[this.index.get(c)!]!]));
  }

  problem(r: CsvRecord, name: string, message: string): void {
    const k = this.index.get(name);
    this.issues.push({ file: this.table.file, line: r.line, field: name, message: `${k === undefined ? '' : `(column ${k + 1}) `}${message}` });
  }
}
