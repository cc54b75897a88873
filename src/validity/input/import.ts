import { readFileSync } from 'node:fs';
import { ConfigError, type ConfigIssue } from '../../core/index.js';
import type { AnalysisTable, Baseline, ExpertRow, RatingRow, Scale } from '../table.js';
import { CsvReader } from './columns.js';
import { parseCsv, type CsvTable } from './csv.js';

/** The CSV files of `validity analyze` (design.md, "Judge validity"). */
export interface AnalysisFiles {
  ratings: string;
  experts: string;
  scales: string;
  outcomes?: string;
  observations?: string;
  /** rater,weight: expertise weights for the weighted ensemble. */
  raterWeights?: string;
}

/**
 * Reads every file in full, then builds the table; any problem in any file is reported together:
 * a file that is not CSV (a row with a field too many, an unclosed quote, bytes that are not
 * UTF-8) beside those of every other file, and once each file reads, every problem of their rows.
 */
export function readAnalysisFiles(files: AnalysisFiles): AnalysisTable {
  const unreadable: ConfigIssue[] = [];
  const read = (path: string | undefined) => {
    try {
      return readCsvFile(path);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      unreadable.push(...error.issues);
      return undefined;
    }
  };
  const t = {
    ratings: read(files.ratings), experts: read(files.experts), scales: read(files.scales),
    outcomes: read(files.outcomes), observations: read(files.observations), raterWeights: read(files.raterWeights),
  };
  if (unreadable.length) throw new ConfigError(unreadable);
  return buildTable(t as Tables);
}

/** A CSV file parsed in full (undefined when no path is given); any problem is a ConfigError naming it. */
export function readCsvFile(path: string | undefined): CsvTable | undefined {
  if (path === undefined) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError([{ file: path, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path` }]);
  }
  return parseCsv(bytes, path);
}

interface Tables {
  ratings: CsvTable; experts: CsvTable; scales: CsvTable;
  outcomes?: CsvTable | undefined; observations?: CsvTable | undefined; raterWeights?: CsvTable | undefined;
}

/** Builds the analysis table from parsed CSV tables, checking keys, numbers and scales. */
export function buildTable(t: Tables): AnalysisTable {
  const issues: ConfigIssue[] = [];
  const scales = readScales(t.scales, issues);
  const ratings = readRatings(t.ratings, scales, issues);
  return finishTable(ratings, scales, t, issues, { ratingsSource: t.ratings.file });
}

/** What the rest of a table is checked against when its ratings came from a stored run, not a file. */
export interface RatingsContext {
  /** Where the ratings came from, for messages (a file, or `run <id>`). */
  ratingsSource: string;
  /** Observations the ratings cover: an expert row naming another is an error (a typo'd id). */
  observations?: ReadonlySet<string>;
  /** How to fix an expert row of an item with no scale. */
  missingScaleHint?: (item: string) => string;
  /** A command that lists the observations (said after an unknown observation id). */
  observationsHint?: string;
  /** Expert rows already read (scores imported into the run), used when no experts file is given. */
  experts?: ExpertRow[];
  /** Outcomes the run measured itself (a learning run's gains), used when no outcomes file is given. */
  outcomes?: ReadonlyMap<string, number>;
  /** Baselines the run measured itself (a deck's D3 metrics), set beside any the files add. */
  baselines?: Baseline[];
  /** Units an outcomes row may name, when the run fixes them (a learning run's decks); another is an error (a typo'd id). */
  units?: { ids: ReadonlySet<string>; hint: string };
}

/** Scales by item; `invalid`: its row is wrong (said once, there), so rows rated on it are not also told it is missing. */
type ScaleTable = Map<string, Scale & { line?: number; invalid?: true }>;

/**
 * The analysis table from ratings already read (a stored run's judgments) and the other files:
 * the same checks and the same table as the CSV path, so every analysis runs unchanged on it.
 */
export function buildTableWithRatings(ratings: RatingRow[], scales: ReadonlyMap<string, Scale>, t: Partial<Omit<Tables, 'ratings'>>, context: RatingsContext): AnalysisTable {
  const issues: ConfigIssue[] = [];
  const all: ScaleTable = new Map(scales);
  // A scales file may add or correct scales (e.g. an item only the experts rated).
  if (t.scales) for (const [item, s] of readScales(t.scales, issues)) all.set(item, s);
  return finishTable(ratings, all, t, issues, context);
}

function finishTable(ratings: RatingRow[], scales: ScaleTable, t: Partial<Omit<Tables, 'ratings' | 'scales'>>, issues: ConfigIssue[], context: RatingsContext): AnalysisTable {
  // Without experts (a stored study's own report) the analyses say what they cannot compute.
  const experts = t.experts ? readExperts(t.experts, scales, issues, context) : context.experts ?? [];
  const baselines: Baseline[] = [...context.baselines ?? []];
  const units = new Map<string, string>();
  if (t.observations) {
    const c = new CsvReader(t.observations, ['observation', 'unit']);
    const rows = c.issues.length ? [] : t.observations.records;
    for (const r of rows) {
      const obs = c.text(r, 'observation');
      if (units.has(obs)) c.problem(r, 'observation', `lists observation "${obs}" a second time`);
      units.set(obs, c.text(r, 'unit'));
    }
    baselines.push(...numericExtras(c, 'observation', 'observation'));
    issues.push(...c.issues);
  }
  // An outcomes file wins over the outcomes a run measured: the user chose it.
  const outcomes = new Map<string, number>(t.outcomes ? [] : context.outcomes ?? []);
  if (t.outcomes) {
    const c = new CsvReader(t.outcomes, ['unit', 'outcome']);
    for (const r of c.issues.length ? [] : t.outcomes.records) {
      const unit = c.text(r, 'unit');
      const v = c.number(r, 'outcome');
      if (outcomes.has(unit)) c.problem(r, 'unit', `lists unit "${unit}" a second time`);
      else if (context.units && unit && !context.units.ids.has(unit)) c.problem(r, 'unit', `"${unit}" is not a unit of ${context.ratingsSource}; ${context.units.hint}`);
      if (v !== null) outcomes.set(unit, v);
    }
    baselines.push(...numericExtras(c, 'unit', 'unit'));
    issues.push(...c.issues);
  }
  const raterWeights = new Map<string, number>();
  if (t.raterWeights) {
    const c = new CsvReader(t.raterWeights, ['rater', 'weight']);
    for (const r of c.issues.length ? [] : t.raterWeights.records) {
      const v = c.number(r, 'weight');
      if (v !== null && !(v >= 0)) c.problem(r, 'weight', `must be >= 0, got ${v}`);
      else if (v !== null) raterWeights.set(c.text(r, 'rater'), v);
    }
    issues.push(...c.issues);
  }
  if (ratings.length === 0 && issues.length === 0) issues.push({ file: context.ratingsSource, message: 'has no rating rows' });
  if (t.experts && experts.length === 0 && issues.length === 0) {
    // A template straight from `validity template` has its rows, every score blank.
    issues.push({ file: t.experts.file, message: t.experts.records.length > 0
      ? `has ${t.experts.records.length} row(s) but no score: fill in the score column (a blank score is a cell not rated yet), then run the same command again`
      : 'has no expert rows: one row per observation, item and expert, with a score' });
  }
  if (issues.length) throw new ConfigError(issues.slice(0, 25).concat(issues.length > 25 ? [{ message: `... and ${issues.length - 25} more problem(s)` }] : []));
  return { ratings, experts, outcomes, units, scales, baselines, raterWeights };
}

function readScales(t: CsvTable, issues: ConfigIssue[]): Map<string, Scale & { line: number; invalid?: true }> {
  const c = new CsvReader(t, ['item', 'min', 'max']);
  const scales = new Map<string, Scale & { line: number; invalid?: true }>();
  for (const r of c.issues.length ? [] : t.records) {
    const item = c.text(r, 'item');
    const min = c.number(r, 'min');
    const max = c.number(r, 'max');
    if (scales.has(item)) c.problem(r, 'item', `lists item "${item}" a second time`);
    if (min !== null && max !== null && !(max > min)) c.problem(r, 'max', `must be above min (${min}), got ${max}`);
    if (min !== null && max !== null && max > min) scales.set(item, { min, max, line: r.line });
    // A table with a problem is never analysed: the wrong row stands in, so its item is not "missing".
    else if (!scales.has(item)) scales.set(item, { min: NaN, max: NaN, line: r.line, invalid: true });
  }
  issues.push(...c.issues);
  return scales;
}

function checkScore(c: CsvReader, r: CsvTable['records'][number], item: string, score: number | null, scales: ScaleTable, hint?: (item: string) => string): void {
  const s = scales.get(item);
  if (!s) { c.problem(r, 'item', hint ? hint(item) : `item "${item}" has no row in the scales file; add "${item},<min>,<max>"`); return; }
  if (s.invalid) return;
  if (score !== null && (score < s.min || score > s.max)) {
    c.problem(r, 'score', `${score} is outside item "${item}"'s scale ${s.min}-${s.max}${s.line !== undefined ? ` (scales file line ${s.line})` : ''}`);
  }
}

function readRatings(t: CsvTable, scales: ScaleTable, issues: ConfigIssue[]): RatingRow[] {
  const c = new CsvReader(t, ['observation', 'item', 'rater', 'prompt', 'score'], ['repeat']);
  const seen = new Map<string, number>();
  const out: RatingRow[] = [];
  for (const r of c.issues.length ? [] : t.records) {
    const row: RatingRow = {
      observation: c.text(r, 'observation'), item: c.text(r, 'item'), rater: c.text(r, 'rater'),
      prompt: c.text(r, 'prompt'), repeat: c.has('repeat') ? c.text(r, 'repeat', true) : '',
      // An empty score is an unscored rating: kept and counted, never read as 0.
      score: c.number(r, 'score', true),
    };
    if (row.score === null && r.cells[t.header.indexOf('score')]!.trim() === '') row.unscoredReason = 'empty score in the ratings file';
    const extra = c.extra(r);
    if (extra) row.extra = extra;
    checkScore(c, r, row.item, row.score, scales);
    const key = JSON.stringify([row.observation, row.item, row.rater, row.prompt, row.repeat]);
    const first = seen.get(key);
    if (first !== undefined) c.problem(r, 'repeat', `repeats the rating on line ${first} (same observation, item, rater, prompt and repeat); give each repeat its own label in a "repeat" column`);
    else seen.set(key, r.line);
    out.push(row);
  }
  issues.push(...c.issues);
  return out;
}

function readExperts(t: CsvTable, scales: ScaleTable, issues: ConfigIssue[], context: RatingsContext): ExpertRow[] {
  const c = new CsvReader(t, ['observation', 'item', 'expert', 'score']);
  const seen = new Map<string, number>();
  const out: ExpertRow[] = [];
  for (const r of c.issues.length ? [] : t.records) {
    // An empty score is a cell the expert has not rated (a blank template row): skipped, not 0.
    const score = c.number(r, 'score', true);
    const row = { observation: c.text(r, 'observation'), item: c.text(r, 'item'), expert: c.text(r, 'expert') };
    checkScore(c, r, row.item, score, scales, context.missingScaleHint);
    if (context.observations && row.observation && !context.observations.has(row.observation)) {
      const some = [...context.observations].slice(0, 3).join(', ');
      c.problem(r, 'observation', `"${row.observation}" is not an observation of ${context.ratingsSource} (its observations look like: ${some})${context.observationsHint ? `; ${context.observationsHint}` : ''}`);
    }
    const key = JSON.stringify([row.observation, row.item, row.expert]);
    const first = seen.get(key);
    if (first !== undefined) c.problem(r, 'expert', `repeats the expert rating on line ${first}`);
    else seen.set(key, r.line);
    const extra = c.extra(r);
    if (score !== null) out.push({ ...row, score, ...(extra ? { extra } : {}) });
  }
  issues.push(...c.issues);
  return out;
}

/** Extra columns whose every cell is a number become baselines; other extra columns are kept only as text. */
function numericExtras(c: CsvReader, keyColumn: string, level: Baseline['level']): Baseline[] {
  return c.extraColumns().flatMap(name => {
    const values = new Map<string, number>();
    for (const r of c.table.records) {
      const v = r.cells[c.table.header.indexOf(name)]!.trim();
      if (v === '') continue;
      if (!Number.isFinite(Number(v))) return [];
      values.set(r.cells[c.table.header.indexOf(keyColumn)]!.trim(), Number(v));
    }
    return values.size ? [{ name, level, values }] : [];
  });
}
