import type { JsonObject } from '../../core/json.js';
import type { Aggregation, FormatField, ScoredField } from '../types.js';

/** A field's scale: `scale`, else [min (default 0), max]; undefined when nothing bounds it above. */
export function scaleOf(f: FormatField): { min: number; max: number } | undefined {
  if (f.type === 'bool') return { min: 0, max: 1 };
  if (f.scale) return f.scale;
  if (f.max === undefined) return undefined;
  return { min: f.min ?? 0, max: f.max };
}

/**
 * The fields that make the weighted score. A numeric or bool field scores itself; a dict field
 * scores through its numeric `score` item (the ELMES habit `{score, reason}`). With no weight
 * anywhere, every field with a scale weighs the same; otherwise only weighted fields count.
 * Weights are normalised to sum to 1.
 */
export function scoredFields(format: ReadonlyArray<FormatField>): ScoredField[] {
  const candidates: Array<Omit<ScoredField, 'weight'> & { raw?: number }> = [];
  for (const f of format) {
    const target = f.type === 'dict' ? (f.items ?? []).find(i => i.field === 'score' && (i.type === 'int' || i.type === 'float')) : f;
    if (!target || target.type === 'str' || target.type === 'dict') continue;
    const scale = f.type === 'dict' ? (f.scale ?? scaleOf(target)) : scaleOf(f);
    if (!scale) continue;
    candidates.push({
      path: f.type === 'dict' ? [f.field, 'score'] : [f.field],
      field: f.field,
      dimension: f.dimension ?? f.field,
      scale,
      type: target.type,
      ...(f.weight !== undefined ? { raw: f.weight } : {}),
    });
  }
  const anyWeight = format.some(f => f.weight !== undefined);
  // An ELMES rubric: numbers with no scale anywhere (a bool's 0..1 aside) and no weights. Its
  // overall is ELMES's mean of the fields, not a weighted score of the bools alone.
  const unscaledNumber = format.some(f => (f.type === 'int' || f.type === 'float') && !scaleOf(f));
  if (!anyWeight && unscaledNumber && candidates.every(c => c.type === 'bool')) return [];
  const weighted = candidates.map(c => ({ ...c, raw: anyWeight ? (c.raw ?? 0) : 1 })).filter(c => c.raw > 0);
  const total = weighted.reduce((s, c) => s + c.raw, 0);
  return weighted.map(({ raw, ...c }) => ({ ...c, weight: raw / total }));
}

/** s_i in [0, 1]: the field's value placed on its scale. */
export function normalise(value: number | boolean, field: ScoredField): number {
  const v = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  return (v - field.scale.min) / (field.scale.max - field.scale.min);
}

export function valueAt(answer: JsonObject, path: ReadonlyArray<string>): unknown {
  let v: unknown = answer;
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

export interface Weighted {
  /** Score = sum_i w_i * s_i, in [0, 1]. */
  score: number;
  /** Per dimension: the weighted mean of its fields' s_i. */
  dimensions: Record<string, number>;
  /** s_i per field path (`guidance.score`). */
  normalised: Record<string, number>;
}

/** The weighted score of field values (raw, on their scales), keyed by field path. */
export function weightedScore(values: ReadonlyMap<string, number | boolean>, scored: ReadonlyArray<ScoredField>): Weighted | undefined {
  if (scored.length === 0) return undefined;
  let score = 0;
  const byDim = new Map<string, { sum: number; weight: number }>();
  const normalised: Record<string, number> = {};
  for (const f of scored) {
    const key = f.path.join('.');
    const v = values.get(key);
    if (v === undefined) return undefined;
    const s = normalise(v, f);
    normalised[key] = s;
    score += f.weight * s;
    const d = byDim.get(f.dimension) ?? { sum: 0, weight: 0 };
    d.sum += f.weight * s;
    d.weight += f.weight;
    byDim.set(f.dimension, d);
  }
  const dimensions = Object.fromEntries([...byDim].map(([k, d]) => [k, d.sum / d.weight]));
  return { score, dimensions, normalised };
}

/**
 * Combine values from several judges (or repeats): `mean`, `median` (mean of the two middle
 * values for an even count), or `majority` (the most frequent value; a tie goes to the median of
 * the tied values, the lower one for an even count, so the result is always a value someone gave).
 */
export function aggregate(values: ReadonlyArray<number>, how: Aggregation): number {
  if (values.length === 0) throw new RangeError('aggregate of no values');
  const sorted = [...values].sort((a, b) => a - b);
  switch (how) {
    case 'mean': return values.reduce((s, v) => s + v, 0) / values.length;
    case 'median': {
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    }
    case 'majority': {
      const counts = new Map<number, number>();
      for (const v of sorted) counts.set(v, (counts.get(v) ?? 0) + 1);
      const top = Math.max(...counts.values());
      const tied = [...counts].filter(([, c]) => c === top).map(([v]) => v);
      return tied[(tied.length - 1) >> 1]!;
    }
  }
}
