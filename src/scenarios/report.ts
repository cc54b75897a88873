import type { Score } from '../core/scorer.js';
import type { Store } from '../core/store.js';
import { compareModels, type ComparedModel, type ModelComparison } from '../stats/inference/compare-models.js';
import { meanInterval } from '../stats/inference/mean-interval.js';
import { SCENARIO_INTERVAL, type Estimate } from './analysis/estimate.js';
import { analyseHumans, type HumanAnalysis } from './analysis/human.js';
import { analyseJudges, type JudgeAnalysis } from './analysis/judges.js';
import { scenarioFailures, type ScenarioFailureGroup } from './analysis/failures.js';
import { loadScenarioRun, mean } from './analysis/stored.js';
import { scenarioTranscripts, type Transcript } from './analysis/transcripts.js';
import type { DialogueMeta } from './dialogue.js';

export type { Estimate } from './analysis/estimate.js';

export interface ScenarioModelReport {
  model: string;
  /** Canonical spec of the model under test; `baseline:*` models are reference systems, not contenders. */
  spec: string;
  isBaseline: boolean;
  /** The weighted score on [0, 1]; with no scaled field, ELMES's overall (see ScenarioReport.scoreKind). */
  score: Estimate;
  dimensions: Record<string, Estimate>;
  /** Each numeric field's mean on its own values (ELMES's columns), by field path. */
  fields: Record<string, Estimate>;
  dialogues: Record<DialogueMeta['status'], number>;
  /** Dialogues the panel could not score (no judge answer fit the format). */
  unscored: number;
}

export interface ScenarioReport {
  runId: string;
  scenario: string;
  evaluation: { name: string; version: string } | null;
  /**
   * What `score` is: `weighted` (sum of w_i s_i on [0, 1], fields placed on their scales), or
   * `elmes-mean` (no field has a scale: per dialogue the mean of its numeric field values, as
   * ELMES's avg column, then the mean over tasks).
   */
  scoreKind: 'weighted' | 'elmes-mean';
  /** How intervals and agreement were computed, so a reader can reproduce them. */
  method: {
    unit: 'task'; interval: 'percentile bootstrap'; level: 0.95; resamples: number; seed: number;
    judgeVariance: string; selfPreference: string; agreement: string; reliability: string;
  };
  models: ScenarioModelReport[];
  /** Radar chart: one axis per dimension, one series per model (dimension means, 0..1). */
  radar: { axes: string[]; series: Array<{ model: string; values: Array<number | null> }> };
  /** One entry per judge of the panel. */
  judges: JudgeAnalysis[];
  /** Judge-human agreement and expert reliability; null until expert scores are imported. */
  human: HumanAnalysis | null;
  /**
   * Every pair of models under test (swept variants) on the tasks both were scored on: the paired
   * bootstrap difference of their weighted scores (a - b) with its 95% interval, and whether the
   * two models' own intervals overlap (then this report does not show which is better).
   */
  comparisons: ScenarioComparison[];
  /** Failed dialogues and judge calls grouped by error; empty when nothing failed. */
  failures: ScenarioFailureGroup[];
  /** Every dialogue's transcript with its judges' fields, reasons and raw answers (reasoning removed). */
  dialogues: Transcript[];
}

/** A compared pair (units are tasks), with whether the intervals overlap and a note in plain words. */
export type ScenarioComparison = Pick<ModelComparison, 'a' | 'b' | 'n' | 'difference' | 'low' | 'high'> & { overlap: boolean; note: string };

const METHOD: ScenarioReport['method'] = {
  unit: 'task', interval: 'percentile bootstrap', level: 0.95, resamples: SCENARIO_INTERVAL.resamples, seed: SCENARIO_INTERVAL.seed,
  judgeVariance: 'per dialogue, the sample variance (n - 1) of a judge\'s weighted scores over its conforming repeats; averaged over dialogues with at least two',
  selfPreference: 'per dialogue, judge score minus panel score (and minus the mean of the other judges); own = dialogues whose model under test is of the judge\'s family; excess = own mean - other mean',
  agreement: 'judge (panel or one judge) vs the mean of the experts per dialogue, on [0, 1]: Kendall tau-b with scipy\'s two-sided p-value, ICC(2,1) (two-way random, absolute agreement, single rater), mean of judge minus expert',
  reliability: 'Cronbach\'s alpha with experts as items, over dialogues every expert scored; Feldt interval',
};

/**
 * The scenario report, from stored scores only: per model under test, the weighted score and
 * each dimension's mean, n and 95% bootstrap interval; per judge, its repeat variance and
 * self-preference; against imported expert scores, agreement and reliability. The unit of the
 * model table is the task: a task's repeats are averaged first, so repeated dialogues of one task
 * do not pass for independent evidence.
 */
export async function scenarioReport(store: Store, runId: string): Promise<ScenarioReport> {
  const data = await loadScenarioRun(store, runId);
  const ev = data.evaluation;
  const panel = new Map<string, Score>();
  if (ev) for (const s of data.scores) if (s.scorer.name === `judge:${ev.name}`) panel.set(s.trialId, s);
  const models = [...new Set(data.trials.map(t => t.modelAlias))];
  const taskScores = new Map<string, Map<string, number>>();
  const reports: ScenarioModelReport[] = models.map(model => {
    const own = data.trials.filter(t => t.modelAlias === model);
    const dialogues: ScenarioModelReport['dialogues'] = { running: 0, ended: 0, capped: 0, failed: 0 };
    for (const t of own) dialogues[data.metas.get(t.id)?.status ?? 'running']++;
    const byTask = new Map<string, { score: number[]; dims: Map<string, number[]>; fields: Map<string, number[]> }>();
    let unscored = 0;
    for (const t of own) {
      const s = panel.get(t.id);
      if (!s) continue;
      if (s.value === null) { unscored++; continue; }
      const entry = byTask.get(t.itemHash) ?? { score: [], dims: new Map<string, number[]>(), fields: new Map<string, number[]>() };
      entry.score.push(s.value);
      for (const [dim, v] of Object.entries((s.details?.dimensions ?? {}) as Record<string, number>)) {
        entry.dims.set(dim, [...(entry.dims.get(dim) ?? []), v]);
      }
      for (const [field, v] of Object.entries((s.details?.fields ?? {}) as Record<string, number>)) {
        entry.fields.set(field, [...(entry.fields.get(field) ?? []), v]);
      }
      byTask.set(t.itemHash, entry);
    }
    taskScores.set(model, new Map([...byTask].map(([task, e]) => [task, mean(e.score)])));
    const tasks = [...byTask.values()];
    const dimNames = [...new Set(tasks.flatMap(t => [...t.dims.keys()]))];
    const fieldNames = [...new Set(tasks.flatMap(t => [...t.fields.keys()]))];
    return {
      model,
      spec: own[0]?.modelSpec ?? '',
      isBaseline: data.isBaseline(model),
      score: meanInterval(tasks.map(t => mean(t.score)), SCENARIO_INTERVAL),
      dimensions: Object.fromEntries(dimNames.map(d => [d, meanInterval(tasks.filter(t => t.dims.has(d)).map(t => mean(t.dims.get(d)!)), SCENARIO_INTERVAL)])),
      fields: Object.fromEntries(fieldNames.map(f => [f, meanInterval(tasks.filter(t => t.fields.has(f)).map(t => mean(t.fields.get(f)!)), SCENARIO_INTERVAL)])),
      dialogues,
      unscored,
    };
  });
  const axes = [...new Set(reports.flatMap(r => Object.keys(r.dimensions)))];
  return {
    runId,
    scenario: data.config.name,
    evaluation: ev ? { name: ev.name, version: ev.version } : null,
    scoreKind: ev && ev.scored.length === 0 ? 'elmes-mean' : 'weighted',
    method: METHOD,
    models: reports,
    radar: { axes, series: reports.map(r => ({ model: r.model, values: axes.map(a => r.dimensions[a]?.mean ?? null) })) },
    judges: analyseJudges(data),
    human: analyseHumans(data),
    comparisons: scenarioComparisons(reports, taskScores),
    failures: await scenarioFailures(store, runId, await store.listTrials(runId)),
    dialogues: await scenarioTranscripts(store, data),
  };
}

/**
 * Every pair of models under test on the tasks both were scored on (stats' compareModels), with a
 * note in plain words: the overlap warning, or which model scores higher.
 */
export function scenarioComparisons(reports: ScenarioModelReport[], taskScores: Map<string, Map<string, number>>): ScenarioComparison[] {
  const contenders = reports.filter(r => !r.isBaseline);
  const side = (r: ScenarioModelReport): ComparedModel => ({ name: r.model, values: taskScores.get(r.model)!, interval: r.score });
  const pairs: Array<readonly [ComparedModel, ComparedModel]> = [];
  for (let i = 0; i < contenders.length; i++) for (let j = i + 1; j < contenders.length; j++) pairs.push([side(contenders[i]!), side(contenders[j]!)]);
  return compareModels(pairs, { ...SCENARIO_INTERVAL, level: 0.95 }).map(c => {
    const overlap = c.intervalsOverlap;
    // One shared task gives a difference but no interval: the scenario table shows no comparison then.
    if (c.n < 2) return { a: c.a, b: c.b, n: c.n, difference: null, low: null, high: null, overlap, note: 'fewer than two shared tasks: no comparison' };
    const note = overlap
      ? `the intervals of ${c.a} and ${c.b} overlap: this report does not show which is better`
      : c.low! > 0 ? `${c.a} scores higher on the shared tasks` : c.high! < 0 ? `${c.b} scores higher on the shared tasks` : 'the paired difference includes 0';
    return { a: c.a, b: c.b, n: c.n, difference: c.difference, low: c.low, high: c.high, overlap, note };
  });
}
