import { ConfigError } from '../../core/errors.js';
import type { StoredEvaluation } from '../analysis/stored.js';
import type { FormatField } from '../types.js';

/** Columns of a blind export that are not rubric fields. */
export const ID_COLUMN = 'id';
export const FIXED_COLUMNS = [ID_COLUMN, 'task', 'transcript'] as const;
export const COMMENT_COLUMN = 'comment';

/** One rubric field an expert scores: a scored field of the evaluation, on its own scale. */
export interface RubricColumn {
  /** CSV column: the field path, `clarity` or `guidance.score`. */
  column: string;
  /** Label Studio control name: the column with characters other than letters, digits, _ and - as _. */
  control: string;
  path: string[];
  dimension: string;
  type: 'int' | 'float' | 'bool';
  min: number;
  max: number;
  description?: string;
}

/** The rubric columns of an evaluation, in format order. */
export function rubricColumns(ev: StoredEvaluation): RubricColumn[] {
  const columns = ev.scored.map(f => {
    const field = ev.format.find(x => x.field === f.field);
    const item: FormatField | undefined = f.path.length > 1 ? field?.items?.find(i => i.field === f.path[1]) : undefined;
    const description = [field?.description, item?.description].filter(Boolean).join(' ');
    const column = f.path.join('.');
    return {
      column,
      control: column.replace(/[^A-Za-z0-9_-]/g, '_'),
      path: f.path,
      dimension: f.dimension,
      type: f.type,
      min: f.scale.min,
      max: f.scale.max,
      ...(description ? { description } : {}),
    };
  });
  const reserved = new Set<string>([...FIXED_COLUMNS, COMMENT_COLUMN]);
  const clash = columns.find(c => reserved.has(c.column) || reserved.has(c.control));
  if (clash) throw new ConfigError([{ field: `evaluation.format.${clash.column}`, message: `the rubric field "${clash.column}" has the name of a fixed export column (${[...reserved].join(', ')}); rename the field` }]);
  const controls = new Set<string>();
  for (const c of columns) {
    if (controls.has(c.control)) throw new ConfigError([{ field: `evaluation.format.${c.column}`, message: `two rubric fields map to the Label Studio name "${c.control}"; rename one` }]);
    controls.add(c.control);
  }
  return columns;
}

/** The scale of a column in words, for experts. */
export function scaleText(c: RubricColumn): string {
  if (c.type === 'bool') return '0 = no, 1 = yes';
  return `${c.type === 'int' ? 'whole number' : 'number'} from ${c.min} to ${c.max}`;
}

export type ParsedValue = { ok: true; value: number | boolean } | { ok: false; problem: string };

/**
 * An expert's value for a column, from a CSV cell (text) or a Label Studio result (number).
 * Strict: a value outside the scale or a fraction for a whole-number field is an error, never
 * rounded or clipped.
 */
export function parseValue(raw: unknown, c: RubricColumn): ParsedValue {
  if (c.type === 'bool') {
    const t = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
    if (t === true || t === 1 || t === 'true' || t === '1' || t === 'yes') return { ok: true, value: true };
    if (t === false || t === 0 || t === 'false' || t === '0' || t === 'no') return { ok: true, value: false };
    return { ok: false, problem: `expected 1/0, yes/no or true/false, got ${show(raw)}` };
  }
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(n)) return { ok: false, problem: `expected a ${scaleText(c)}, got ${show(raw)}` };
  if (c.type === 'int' && !Number.isInteger(n)) return { ok: false, problem: `expected a whole number from ${c.min} to ${c.max}, got ${show(raw)}` };
  if (n < c.min || n > c.max) return { ok: false, problem: `${show(raw)} is outside the scale ${c.min} to ${c.max}` };
  return { ok: true, value: n };
}

function show(raw: unknown): string {
  return typeof raw === 'string' ? `"${raw}"` : JSON.stringify(raw) ?? String(raw);
}

/** One scored dialogue as read from a file, before checking: `line` (CSV) or `row` (JSON) locates it. */
export interface ImportRow {
  line?: number;
  row?: number;
  id: string | undefined;
  /** Raw value per rubric column; undefined or '' when the expert left it empty. */
  values: Record<string, unknown>;
  comment?: string;
}
