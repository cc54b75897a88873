import type { ChatModel } from '../../core/chat-model.js';
import { JSON_CLOSE, JSON_OPEN } from '../judge/format.js';
import { askJson, isText, type CallCounter, type Checked } from './ask.js';
import { SCALE, type Case, type CaseScores, type Metric, type MetricFlag, type MetricStats, type Thresholds } from './types.js';

const norm = (v: number) => (v - SCALE.min) / (SCALE.max - SCALE.min);

/** Each metric's distribution over the round's cases (unscored cases left out) and its flags. */
export function diagnose(metrics: ReadonlyArray<Metric>, scores: ReadonlyArray<CaseScores>, t: Thresholds): MetricStats[] {
  return metrics.map(m => {
    const xs = scores.map(s => s[m.field]).filter((v): v is number => typeof v === 'number').map(norm);
    if (xs.length === 0) return { field: m.field, n: 0, mean: null, sd: null, flags: [] };
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = xs.length < 2 ? null : Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
    const flags: MetricFlag[] = [];
    if (mean <= t.strictMean) flags.push('too-strict');
    if (mean >= t.lenientMean) flags.push('too-lenient');
    if (sd !== null && sd < t.weakSd) flags.push('weak');
    return { field: m.field, n: xs.length, mean, sd, flags };
  });
}

/** The normalised sd at which a metric counts as fully discriminating (1 point on 1-5). */
const FULL_SPREAD = 0.25;

/**
 * Rubric quality in [0, 1], the quantity the loop keeps the best of: per metric the mean of
 * centrality (1 - |2 mean - 1|: 1 at mid-scale, 0 at the floor or ceiling) and spread
 * (sd / 0.25, capped at 1), averaged over metrics; a metric with fewer than two scores counts 0.
 */
export function quality(stats: ReadonlyArray<MetricStats>): number {
  if (stats.length === 0) return 0;
  const health = stats.map(s => (s.mean === null || s.sd === null ? 0 : ((1 - Math.abs(2 * s.mean - 1)) + Math.min(1, s.sd / FULL_SPREAD)) / 2));
  return health.reduce((a, b) => a + b, 0) / health.length;
}

/**
 * Metric drift: the mean absolute change, normalised, of the frozen anchors' scores between two
 * versions, over the (anchor, metric) cells both scored; null when none was.
 */
export function drift(before: ReadonlyArray<CaseScores>, after: ReadonlyArray<CaseScores>, metrics: ReadonlyArray<Metric>): number | null {
  const diffs: number[] = [];
  before.forEach((b, i) => {
    for (const m of metrics) {
      const x = b[m.field];
      const y = after[i]?.[m.field];
      if (typeof x === 'number' && typeof y === 'number') diffs.push(Math.abs(norm(x) - norm(y)));
    }
  });
  return diffs.length ? diffs.reduce((a, b) => a + b, 0) / diffs.length : null;
}

/** The k cases with the lowest weighted score (unscored cases last, as they say nothing). */
export function lowestCases(cases: ReadonlyArray<Case>, scores: ReadonlyArray<CaseScores>, metrics: ReadonlyArray<Metric>, k: number): Array<{ case: Case; score: number }> {
  return cases
    .map((c, i) => {
      const cells = metrics.filter(m => typeof scores[i]?.[m.field] === 'number');
      const w = cells.reduce((s, m) => s + m.weight, 0);
      return { case: c, score: cells.length ? cells.reduce((s, m) => s + m.weight * norm(scores[i]![m.field]!), 0) / w : Infinity, i };
    })
    .sort((a, b) => a.score - b.score || a.i - b.i)
    .slice(0, k)
    .filter(x => Number.isFinite(x.score))
    .map(x => ({ case: x.case, score: x.score }));
}

const ADVICE: Record<MetricFlag, string> = {
  'too-strict': 'too strict: almost every answer gets the bottom of the scale; make the description say what partial success looks like',
  'too-lenient': 'too lenient: almost every answer gets the top of the scale; make the description name what a merely adequate answer lacks',
  weak: 'weakly discriminating: answers all get about the same score; make the description name observable differences between levels',
};

export function checkRevisions(value: unknown, flagged: ReadonlyArray<Metric>): Checked<Array<Pick<Metric, 'name' | 'description' | 'positive' | 'negative'>>> {
  const list = (value as { metrics?: unknown } | null)?.metrics;
  if (!Array.isArray(list)) return { ok: false, problems: ['expected {"metrics": [...]}'] };
  const problems: string[] = [];
  const names = new Set(flagged.map(m => m.name));
  const out = list.map((r: unknown, i) => {
    const x = (r ?? {}) as Record<string, unknown>;
    for (const key of ['name', 'description', 'positive', 'negative'] as const) if (!isText(x[key])) problems.push(`metrics[${i}].${key} must be non-empty text`);
    if (isText(x.name) && !names.has(x.name.trim())) problems.push(`metrics[${i}].name "${x.name}" is not one of the metrics to revise (${[...names].join(', ')}); names stay fixed`);
    return { name: String(x.name ?? '').trim(), description: String(x.description ?? '').trim(), positive: String(x.positive ?? '').trim(), negative: String(x.negative ?? '').trim() };
  });
  for (const n of names) if (!out.some(r => r.name === n)) problems.push(`the metric "${n}" is missing`);
  return problems.length ? { ok: false, problems } : { ok: true, value: out };
}

/**
 * Rewrite the descriptions and examples of the flagged metrics from their score distributions.
 * Names, fields, dimensions and weights are kept by construction: only the three texts are taken
 * from the answer. Returns the metrics unchanged when none is flagged (no call).
 */
export async function evolveMetrics(o: { generator: ChatModel; metrics: Metric[]; stats: ReadonlyArray<MetricStats>; attempts: number; calls: CallCounter }): Promise<Metric[]> {
  const flagged = o.metrics.filter(m => o.stats.find(s => s.field === m.field)?.flags.length);
  if (flagged.length === 0) return o.metrics;
  const points = (x: number | null) => (x === null ? 'n/a' : (SCALE.min + x * (SCALE.max - SCALE.min)).toFixed(2));
  const lines = flagged.map(m => {
    const s = o.stats.find(x => x.field === m.field)!;
    return `- ${m.name} (${m.dimension}): mean ${points(s.mean)}, sd ${s.sd === null ? 'n/a' : (s.sd * (SCALE.max - SCALE.min)).toFixed(2)} on ${SCALE.min}-${SCALE.max} over ${s.n} answers; ${s.flags.map(f => ADVICE[f]).join('; ')}.\n  Description: ${m.description}\n  Scores high: ${m.positive}\n  Scores low: ${m.negative}`;
  });
  const revised = await askJson({
    model: o.generator, step: 'evolve-metrics', what: "generator's metric revision", attempts: o.attempts, calls: o.calls,
    messages: [{ role: 'user', content: [
      'These rubric metrics scored poorly as measuring instruments in the last round:',
      lines.join('\n'),
      'Rewrite the description (operational, what earns each end of the scale) and the two examples of each. Keep every name exactly as written.',
      `Answer with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE}: {"metrics": [{"name": ..., "description": ..., "positive": ..., "negative": ...}]}`,
    ].join('\n\n') }],
  }, v => checkRevisions(v, flagged));
  return o.metrics.map(m => {
    const r = revised.find(x => x.name === m.name);
    return r ? { ...m, description: r.description, positive: r.positive, negative: r.negative } : m;
  });
}

/** Rewrite the question-generation prompt towards the weaknesses the lowest-scoring cases showed. */
export async function evolvePrompt(o: { generator: ChatModel; prompt: string; lowest: ReadonlyArray<{ case: Case; score: number }>; attempts: number; calls: CallCounter }): Promise<string> {
  const cases = o.lowest.map(({ case: c, score }, i) => `Case ${i + 1} (score ${score.toFixed(2)} of 1): ${c.question.persona}\nQuestion: ${c.question.internal}\nAnswer: ${c.answer}`).join('\n\n');
  return askJson({
    model: o.generator, step: 'evolve-prompt', what: "generator's revised question prompt", attempts: o.attempts, calls: o.calls,
    messages: [{ role: 'user', content: [
      `This prompt generates test questions for an AI teacher:\n${o.prompt}`,
      `The answers that scored lowest were:\n${cases || '(none scored)'}`,
      'Rewrite the prompt so that the next questions probe these weaknesses further, while keeping personas diverse. Do not add output-format instructions; they are added separately.',
      `Answer with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE}: {"prompt": "..."}`,
    ].join('\n\n') }],
  }, v => {
    const p = (v as { prompt?: unknown } | null)?.prompt;
    return isText(p) ? { ok: true, value: p.trim() } : { ok: false, problems: ['expected {"prompt": "<non-empty text>"}'] };
  });
}
