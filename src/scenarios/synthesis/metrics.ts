import type { ChatModel } from '../../core/chat-model.js';
import { ConfigError } from '../../core/errors.js';
import { JSON_CLOSE, JSON_OPEN } from '../judge/format.js';
import { askJson, isText, type CallCounter, type Checked } from './ask.js';
import { SCALE, type Metric, type SeedDimension } from './types.js';

export const MIN_METRICS = 6;
export const MAX_METRICS = 10;
/** The judge's free-text field in the synthesised format; no metric may take its name. */
export const REASON_FIELD = 'reason';

/** `Name=weight,Name=weight` (the CLI's --dimensions); weights must be positive. */
export function parseDimensions(text: string): SeedDimension[] {
  const dims = text.split(',').map(s => s.trim()).filter(Boolean).map(part => {
    const eq = part.lastIndexOf('=');
    const weight = Number(part.slice(eq + 1));
    if (eq <= 0 || !Number.isFinite(weight) || weight <= 0) {
      throw new ConfigError([{ field: '--dimensions', message: `"${part}" is not Name=weight with a positive weight (e.g. "Personalisation=0.3,Teaching method professionalism=0.4")` }]);
    }
    return { name: part.slice(0, eq).trim(), weight };
  });
  if (dims.length === 0) throw new ConfigError([{ field: '--dimensions', message: 'give at least one Name=weight' }]);
  return dims;
}

/** A metric name as a format field: lower case, runs of other characters as `_`. */
export function fieldOf(name: string): string {
  const slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z_]/.test(slug) ? slug : `m_${slug}`;
}

/**
 * Check the generator's draft: 6-10 metrics, each with a name, a dimension among the seeds, a
 * positive weight, a description and both examples; names distinct as fields; every dimension
 * covered. Weights are then scaled so that each dimension's metrics sum to its seed weight.
 */
export function checkMetrics(value: unknown, dims: ReadonlyArray<SeedDimension>): Checked<Metric[]> {
  const list = (value as { metrics?: unknown } | null)?.metrics;
  if (!Array.isArray(list)) return { ok: false, problems: ['expected {"metrics": [...]}'] };
  const problems: string[] = [];
  if (list.length < MIN_METRICS || list.length > MAX_METRICS) problems.push(`expected ${MIN_METRICS} to ${MAX_METRICS} metrics, got ${list.length}`);
  const byName = new Map(dims.map(d => [d.name.toLowerCase(), d]));
  const fields = new Set<string>();
  const drafted: Metric[] = [];
  list.forEach((m: unknown, i) => {
    const r = (m ?? {}) as Record<string, unknown>;
    const at = `metrics[${i}]`;
    for (const key of ['name', 'description', 'positive', 'negative'] as const) if (!isText(r[key])) problems.push(`${at}.${key} must be non-empty text`);
    const dim = typeof r.dimension === 'string' ? byName.get(r.dimension.trim().toLowerCase()) : undefined;
    if (!dim) problems.push(`${at}.dimension must be one of: ${dims.map(d => d.name).join(', ')}`);
    const weight = typeof r.weight === 'number' ? r.weight : Number(r.weight);
    if (!Number.isFinite(weight) || weight <= 0) problems.push(`${at}.weight must be a positive number`);
    if (!isText(r.name)) return;
    const field = fieldOf(r.name);
    if (field === REASON_FIELD || fields.has(field)) problems.push(`${at}.name "${r.name}" is taken; give each metric a distinct name`);
    fields.add(field);
    if (dim && isText(r.description) && isText(r.positive) && isText(r.negative)) {
      drafted.push({ name: r.name.trim(), field, dimension: dim.name, weight, description: r.description.trim(), positive: r.positive.trim(), negative: r.negative.trim() });
    }
  });
  for (const d of dims) if (!drafted.some(m => m.dimension === d.name) && problems.length === 0) problems.push(`no metric for the dimension "${d.name}"`);
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: drafted.map(m => {
    const dim = dims.find(d => d.name === m.dimension)!;
    const total = drafted.filter(x => x.dimension === m.dimension).reduce((s, x) => s + x.weight, 0);
    return { ...m, weight: (dim.weight * m.weight) / total };
  }) };
}

/** The generator drafts the rubric from the description and the seed dimensions. */
export async function draftMetrics(o: { generator: ChatModel; description: string; dimensions: ReadonlyArray<SeedDimension>; attempts: number; calls: CallCounter }): Promise<Metric[]> {
  const dims = o.dimensions.map(d => `- ${d.name} (weight ${d.weight})`).join('\n');
  return askJson({
    model: o.generator, step: 'metrics', what: "generator's metric draft", attempts: o.attempts, calls: o.calls,
    messages: [
      { role: 'system', content: 'You design rubrics for judging how well an AI teaches. Metrics must be observable in a single answer and scorable by another model.' },
      { role: 'user', content: [
        `Scenario:\n${o.description}`,
        `Seed dimensions (weights sum the importance of their metrics):\n${dims}`,
        `Draft ${MIN_METRICS} to ${MAX_METRICS} metrics, at least one per dimension. Each metric has: name (a short noun phrase), dimension (exactly one of the dimension names above), weight (its importance within its dimension, a positive number), description (operational: what to look for and what earns ${SCALE.min} and ${SCALE.max} on a ${SCALE.min}-${SCALE.max} scale), positive (a short example excerpt that scores high) and negative (one that scores low).`,
        `Answer with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE}: {"metrics": [{"name": ..., "dimension": ..., "weight": ..., "description": ..., "positive": ..., "negative": ...}]}`,
      ].join('\n\n') },
    ],
  }, v => checkMetrics(v, o.dimensions));
}
