import type { FormatFieldInput } from '../schema.js';
import type { FormatField } from '../types.js';

/**
 * The format as the judge is shown it: a field without a type is a float score (the Elmes+ short
 * form), and an int or float field that gives no scale of its own (no max, no scale) takes the
 * evaluation's `scale` when the file declares one.
 */
export function resolveFormat(fields: ReadonlyArray<FormatFieldInput>, scale?: { min: number; max: number }): FormatField[] {
  return fields.map(f => {
    const { items, ...rest } = f;
    const type = f.type ?? 'float';
    const out: FormatField = { ...rest, type, ...(items ? { items: resolveFormat(items, scale) } : {}) };
    const numeric = type === 'int' || type === 'float';
    if (numeric && scale && f.max === undefined && f.scale === undefined) out.scale = scale;
    return out;
  });
}

/** A field whose answers are numbers (bool as 1/0): a top-level int, float or bool, or a dict's numeric `score`. */
export interface NumericField {
  /** Dot-path into the answer: `accuracy` or `guidance.score`. */
  path: string[];
  field: string;
  /** Whether it has a scale (max, scale, evaluation.scale; bool is 0..1) to place it in the weighted score. */
  scaled: boolean;
}

export function numericFields(format: ReadonlyArray<FormatField>): NumericField[] {
  const out: NumericField[] = [];
  for (const f of format) {
    if (f.type === 'int' || f.type === 'float' || f.type === 'bool') {
      out.push({ path: [f.field], field: f.field, scaled: f.type === 'bool' || f.max !== undefined || f.scale !== undefined });
    } else if (f.type === 'dict') {
      const score = (f.items ?? []).find(i => i.field === 'score' && (i.type === 'int' || i.type === 'float'));
      if (score) out.push({ path: [f.field, 'score'], field: f.field, scaled: f.scale !== undefined || score.max !== undefined || score.scale !== undefined });
    }
  }
  return out;
}

/**
 * ELMES's overall score of one judged dialogue: the unweighted mean of its numeric field values on
 * their own scales (ELMES's `avg` column; its overall is the mean of these over dialogues).
 * Undefined when a value is missing or there is no numeric field.
 */
export function elmesMean(values: ReadonlyMap<string, number>, numeric: ReadonlyArray<NumericField>): number | undefined {
  if (numeric.length === 0) return undefined;
  let sum = 0;
  for (const f of numeric) {
    const v = values.get(f.path.join('.'));
    if (v === undefined) return undefined;
    sum += v;
  }
  return sum / numeric.length;
}

/** A field value as a number: bool counts 1 or 0, as ELMES's float(True). */
export function numericValue(v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
