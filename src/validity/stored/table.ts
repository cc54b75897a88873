import { commandHint } from '../../core/command-hint.js';
import { ConfigError, type JsonValue, type Judgment, type Store } from '../../core/index.js';
import type { CsvTable } from '../input/csv.js';
import { buildTableWithRatings, readCsvFile } from '../input/import.js';
import type { AnalysisTable, ExpertRow, RatingRow, Scale } from '../table.js';
import { expertsFromScores } from './experts.js';
import { observationIdOf } from './observations.js';

/** The ratings a stored run's Judgments hold, with the scales they were given on. */
export interface StoredRatings {
  ratings: RatingRow[];
  scales: Map<string, Scale>;
  observations: Set<string>;
  /** Expert scores imported into the run (`paideia scenario import`), on the judges' items. */
  experts: ExpertRow[];
}

/**
 * Rating rows from the Judgments of any stored run (a rating study, scenario judge panels, tutor
 * explanation judges): one row per judgment and scaled field (the field's path is the item), the
 * rater's alias, the judgment's prompt variant and repeat. A judgment with no declared scales is
 * one pass/fail item named after its producer, on [0, 1]. Unscored judgments are kept unscored,
 * with their reason, on every item they would have rated.
 */
export async function ratingsFromRun(store: Store, runId: string): Promise<StoredRatings> {
  const [trials, judgments, scores] = await Promise.all([store.listTrials(runId), store.listJudgments(runId), store.listScores(runId)]);
  const byId = new Map(trials.map(t => [t.id, t]));
  // The newest judgment of each judge trial and producer counts (stored ones may predate a version bump).
  const latest = new Map<string, Judgment>();
  for (const j of judgments) latest.set(`${j.trialId}\u0000${j.producer.name}`, j);
  const out: StoredRatings = { ratings: [], scales: new Map(), observations: new Set(), experts: [] };
  for (const j of latest.values()) {
    const target = byId.get(j.targetTrialId);
    if (!target) continue;
    const observation = observationIdOf(target, j);
    out.observations.add(observation);
    const base = { observation, rater: j.rater.alias, prompt: j.promptVariant, repeat: String(j.repeat) };
    const scales = Object.entries(j.scales ?? {});
    if (scales.length === 0) scales.push([j.producer.name, { min: 0, max: 1 }]);
    for (const [item, scale] of scales) {
      out.scales.set(item, scale);
      const v = j.scales?.[item] ? valueAt(j.fields, item.split('.')) : j.value;
      const score = typeof v === 'number' && Number.isFinite(v) && v >= scale.min && v <= scale.max ? v : null;
      out.ratings.push(score === null
        ? { ...base, item, score: null, unscoredReason: j.reason ?? (v === undefined ? 'no value for this field' : `value ${JSON.stringify(v)} is not on the scale ${scale.min}-${scale.max}`) }
        : { ...base, item, score });
    }
  }
  out.experts = expertsFromScores(scores, byId, out.scales);
  return out;
}

/**
 * The optional CSV files beside a stored run's ratings (the CSV contract of `validity analyze`):
 * paths, or tables already parsed (the web app's uploads, named after the uploaded file).
 */
export interface RunAnalysisFiles {
  experts?: string | CsvTable;
  scales?: string | CsvTable;
  outcomes?: string | CsvTable;
  observations?: string | CsvTable;
  raterWeights?: string | CsvTable;
}

const read = (f: string | CsvTable | undefined) => (typeof f === 'string' ? readCsvFile(f) : f);

/** The files of RunAnalysisFiles as tables: each read from its path, or as the caller parsed it. */
export function runAnalysisTables(files: RunAnalysisFiles) {
  return {
    experts: read(files.experts), scales: read(files.scales), outcomes: read(files.outcomes),
    observations: read(files.observations), raterWeights: read(files.raterWeights),
  };
}

/**
 * The analysis table of a stored run: its Judgments as ratings, the files for the rest. Without
 * an experts file, the expert scores imported into the run (if any) are the experts.
 */
export async function tableFromRun(store: Store, runId: string, files: RunAnalysisFiles): Promise<AnalysisTable> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError([{ field: '--run', message: `no run "${runId}" in ${store.url}; list runs with: ${commandHint(['runs'], store.url)}` }]);
  const stored = await ratingsFromRun(store, runId);
  if (stored.ratings.length === 0) throw new ConfigError([{ field: '--run', message: `run ${runId} (a ${run.kind} run) holds no judgments to analyse; judges store them (a scenario with an evaluation, paideia run --judge, or paideia validity run)` }]);
  const items = [...stored.scales.keys()].sort();
  return buildTableWithRatings(stored.ratings, stored.scales, runAnalysisTables(files), {
    ratingsSource: `run ${runId}`, observations: stored.observations,
    missingScaleHint: item => `item "${item}" is not rated in run ${runId} (its items: ${items.join(', ')}); rename it, or give its scale with --scales FILE`,
    ...(files.experts === undefined && stored.experts.length ? { experts: stored.experts } : {}),
    observationsHint: `write every observation and item of the run as a blank expert file with: ${commandHint(['validity', 'template', '--run', runId], store.url)}`,
  });
}

function valueAt(fields: JsonValue, path: string[]): JsonValue | undefined {
  let v: JsonValue | undefined = fields;
  for (const key of path) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? v[key] : undefined;
  return v;
}
