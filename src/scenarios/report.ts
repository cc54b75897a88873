import { ConfigError } from '../core/errors.js';
import type { Score } from '../core/scorer.js';
import type { Store } from '../core/store.js';
import { bootstrapCI } from '../stats/inference/bootstrap.js';
import { DIALOGUE_KIND, SCENARIO_KIND, type DialogueMeta } from './dialogue.js';

/** A mean with its n and 95% percentile-bootstrap interval (null bounds when n < 2). */
export interface Estimate {
  mean: number | null;
  n: number;
  low: number | null;
  high: number | null;
}

export interface ScenarioModelReport {
  model: string;
  /** Canonical spec of the model under test; `baseline:*` models are reference systems, not contenders. */
  spec: string;
  isBaseline: boolean;
  score: Estimate;
  dimensions: Record<string, Estimate>;
  dialogues: Record<DialogueMeta['status'], number>;
  /** Dialogues the panel could not score (no judge answer fit the format). */
  unscored: number;
}

export interface ScenarioReport {
  runId: string;
  scenario: string;
  evaluation: { name: string; version: string } | null;
  /** How intervals were computed, so a reader can reproduce them. */
  method: { unit: 'task'; interval: 'percentile bootstrap'; level: 0.95; resamples: number; seed: number };
  models: ScenarioModelReport[];
  /** Radar chart: one axis per dimension, one series per model (dimension means, 0..1). */
  radar: { axes: string[]; series: Array<{ model: string; values: Array<number | null> }> };
}

const RESAMPLES = 2000;
const SEED = 20261129;

/**
 * The basic scenario report, from stored scores only: per model under test, the weighted score and
 * each dimension's mean, n and 95% bootstrap interval. The unit is the task: a task's repeats are
 * averaged first, so repeated dialogues of one task do not pass for independent evidence.
 */
export async function scenarioReport(store: Store, runId: string): Promise<ScenarioReport> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: 'run-id', message: `no run "${runId}" in ${store.url}` }]);
  const config = (await store.listArtifacts(runId, SCENARIO_KIND)).find(a => a.key === 'config')?.value as
    | { name: string; evaluationVersion: string | null; config: { evaluation?: { name?: string } } }
    | undefined;
  if (!config) throw new ConfigError([{ field: 'run-id', message: `run "${runId}" is not a scenario run; use paideia report` }]);
  const evalName = config.config.evaluation?.name ?? 'evaluation';
  const version = config.evaluationVersion;
  const trials = await store.listTrials(runId);
  const metas = new Map((await store.listArtifacts(runId, DIALOGUE_KIND)).map(a => [a.key, a.value as unknown as DialogueMeta]));
  const panel = new Map<string, Score>();
  if (version) {
    for (const s of await store.listScores(runId)) {
      if (s.scorer.name === `judge:${evalName}` && s.scorer.version === version) panel.set(s.trialId, s);
    }
  }
  const models = [...new Set(trials.map(t => t.modelAlias))];
  const reports: ScenarioModelReport[] = models.map(model => {
    const own = trials.filter(t => t.modelAlias === model);
    const dialogues: ScenarioModelReport['dialogues'] = { running: 0, ended: 0, capped: 0, failed: 0 };
    for (const t of own) dialogues[metas.get(t.id)?.status ?? 'running']++;
    const byTask = new Map<string, { score: number[]; dims: Map<string, number[]> }>();
    let unscored = 0;
    for (const t of own) {
      const s = panel.get(t.id);
      if (!s) continue;
      if (s.value === null) { unscored++; continue; }
      const entry = byTask.get(t.itemHash) ?? { score: [], dims: new Map<string, number[]>() };
      entry.score.push(s.value);
      for (const [dim, v] of Object.entries((s.details?.dimensions ?? {}) as Record<string, number>)) {
        entry.dims.set(dim, [...(entry.dims.get(dim) ?? []), v]);
      }
      byTask.set(t.itemHash, entry);
    }
    const tasks = [...byTask.values()];
    const dimNames = [...new Set(tasks.flatMap(t => [...t.dims.keys()]))];
    return {
      model,
      spec: own[0]?.modelSpec ?? '',
      isBaseline: (own[0]?.modelSpec ?? '').startsWith('baseline:'),
      score: estimate(tasks.map(t => mean(t.score))),
      dimensions: Object.fromEntries(dimNames.map(d => [d, estimate(tasks.filter(t => t.dims.has(d)).map(t => mean(t.dims.get(d)!)))])),
      dialogues,
      unscored,
    };
  });
  const axes = [...new Set(reports.flatMap(r => Object.keys(r.dimensions)))];
  return {
    runId,
    scenario: config.name,
    evaluation: version ? { name: evalName, version } : null,
    method: { unit: 'task', interval: 'percentile bootstrap', level: 0.95, resamples: RESAMPLES, seed: SEED },
    models: reports,
    radar: { axes, series: reports.map(r => ({ model: r.model, values: axes.map(a => r.dimensions[a]?.mean ?? null) })) },
  };
}

function mean(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

function estimate(values: number[]): Estimate {
  if (values.length === 0) return { mean: null, n: 0, low: null, high: null };
  if (values.length < 2) return { mean: values[0]!, n: 1, low: null, high: null };
  const ci = bootstrapCI(values, 'mean', { resamples: RESAMPLES, level: 0.95, seed: SEED });
  return { mean: ci.estimate, n: values.length, low: ci.low, high: ci.high };
}

/** The report as a Markdown table (for the terminal). */
export function renderScenarioReport(r: ScenarioReport): string {
  const fmt = (e: Estimate) => e.mean === null ? 'n/a' : `${e.mean.toFixed(3)} [${e.low?.toFixed(3) ?? '-'}, ${e.high?.toFixed(3) ?? '-'}] n=${e.n}`;
  const axes = r.radar.axes;
  const lines = [
    `# Scenario ${r.scenario} (run ${r.runId})`,
    '',
    r.evaluation ? `Judgment: ${r.evaluation.name} (version ${r.evaluation.version}). Means with 95% bootstrap intervals over tasks.` : 'No evaluation in this scenario.',
    '',
    `| model | score | ${axes.join(' | ')} | dialogues (ended/capped/failed/running) | unscored |`,
    `|---|---|${axes.map(() => '---|').join('')}---|---|`,
    ...r.models.map(m => `| ${m.model}${m.isBaseline ? ' (baseline)' : ''} | ${fmt(m.score)} | ${axes.map(a => (m.dimensions[a] ? fmt(m.dimensions[a]!) : 'n/a')).join(' | ')} | ${m.dialogues.ended}/${m.dialogues.capped}/${m.dialogues.failed}/${m.dialogues.running} | ${m.unscored} |`),
  ];
  return lines.join('\n') + '\n';
}
