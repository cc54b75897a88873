import { commandHint } from '../../core/command-hint.js';
import { FILE_LIMITS, readUserFile, readUserText } from '../../core/user-file.js';
import { basename, extname } from 'node:path';
import { ConfigError, type ConfigIssue } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import type { Score } from '../../core/scorer.js';
import type { Store } from '../../core/store.js';
import { HUMAN_PREFIX } from '../analysis/human.js';
import { loadScenarioRun, type StoredEvaluation } from '../analysis/stored.js';
import { CsvSyntaxError, parseCsv, restoreCell } from '../csv.js';
import { weightedScore } from '../judge/score.js';
import { COMMENT_COLUMN, ID_COLUMN, parseValue, rubricColumns, type ImportRow, type RubricColumn } from './columns.js';

export type { ImportRow };
import { BLIND_EXPORT_KIND, type BlindKey } from './export.js';
import { labelStudioRows } from './labelstudio.js';


export interface ImportOptions {
  /** A filled-in CSV export, or a Label Studio JSON / JSON-MIN export. */
  file: string;
  rater: string;
  /** A private key file; default: the keys stored in the run by `scenario export`. */
  keyFile?: string;
}

export interface ImportSummary {
  scorer: string;
  imported: number;
  /** Rows with no value at all (not scored yet). */
  skipped: number;
}

const RATER = /^[\p{L}\p{N}_.@-]+$/u;

/**
 * Import one expert's scores into the run as Scores named `human:<rater>` (version = the
 * evaluation's, so a changed rubric does not mix with old scores). Every problem is reported at
 * once, each with the file, the line or row and the column; nothing is stored unless all rows
 * are good. Importing the same rater again replaces their earlier scores of the same dialogues.
 */
export async function importHumanScores(store: Store, runId: string, o: ImportOptions): Promise<ImportSummary> {
  return importHumanRows(store, runId, { rater: o.rater, file: o.file, ...(o.keyFile ? { keyFile: o.keyFile } : {}), rows: (columns, issues) => readRows(o.file, columns, issues) });
}

/** Rows of one expert's scores from any source: a file, or the web app's blind scoring page (`file` names the source). */
export interface HumanRowsOptions {
  rater: string;
  file: string;
  keyFile?: string;
  rows(columns: RubricColumn[], issues: ConfigIssue[]): ImportRow[];
}

/** As importHumanScores, for rows already read: the same checks, the same Scores. */
export async function importHumanRows(store: Store, runId: string, o: HumanRowsOptions): Promise<ImportSummary> {
  const rater = o.rater.trim();
  if (!RATER.test(rater)) throw new ConfigError([{ field: '--rater', message: `"${o.rater}" is not a rater name: use letters, digits, _ . @ - (e.g. --rater anna.k)` }]);
  const data = await loadScenarioRun(store, runId);
  const ev = data.evaluation;
  if (!ev) throw new ConfigError([{ field: 'run-id', message: `run "${runId}" has no evaluation to score against` }]);
  const columns = rubricColumns(ev);
  const ids = o.keyFile ? keyFileIds(o.keyFile, runId, ev) : await storedIds(store, runId, ev);

  const issues: ConfigIssue[] = [];
  const rows = o.rows(columns, issues);
  const scorer = `${HUMAN_PREFIX}${rater}`;
  const scores: Score[] = [];
  const seen = new Map<string, string>();
  let skipped = 0;
  for (const r of rows) {
    // CSV rows have a line and the column is the field; JSON rows have only their position.
    const issue = (column: string, message: string) => issues.push({ file: o.file, ...(r.line !== undefined ? { line: r.line, field: column } : { field: `row ${r.row}.${column}` }), message });
    const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    if (columns.every(c => blank(r.values[c.column]))) { skipped++; continue; }
    const here = r.line !== undefined ? `line ${r.line}` : `row ${r.row}`;
    if (r.id === undefined || r.id.trim() === '') { issue(ID_COLUMN, 'the row has scores but no id; keep the id column of the export'); continue; }
    const id = r.id.trim();
    const target = ids.get(id);
    if (!target) { issue(ID_COLUMN, `id "${id}" is not in ${o.keyFile ? `the key file ${o.keyFile}` : `any blind export of run ${runId}`}; was the file exported from another run?`); continue; }
    if (seen.has(id)) { issue(ID_COLUMN, `id "${id}" was already scored at ${seen.get(id)}`); continue; }
    seen.set(id, here);
    const fields: JsonObject = {};
    let ok = true;
    for (const c of columns) {
      const raw = r.values[c.column];
      if (blank(raw)) { issue(c.column, `no value; expected a ${describe(c)} (or leave the whole row empty to skip it)`); ok = false; continue; }
      const parsed = parseValue(raw, c);
      if (!parsed.ok) { issue(c.column, parsed.problem); ok = false; continue; }
      fields[c.column] = parsed.value;
    }
    if (!ok) continue;
    const weighted = weightedScore(new Map(Object.entries(fields) as Array<[string, number | boolean]>), ev.scored);
    scores.push({
      runId, trialId: target.trialId,
      scorer: { name: scorer, version: ev.version, args: { rater, exportId: target.exportId, file: basename(o.file) } },
      value: weighted ? weighted.score : null,
      details: {
        rater, fields, source: { file: basename(o.file), ...(r.line !== undefined ? { line: r.line } : { row: r.row! }) },
        ...(weighted ? { normalised: weighted.normalised, dimensions: weighted.dimensions } : {}),
        ...(r.comment ? { comment: r.comment } : {}),
      },
    });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  await store.saveScores(scores);
  return { scorer, imported: scores.length, skipped };
}

function describe(c: RubricColumn): string {
  return c.type === 'bool' ? '1/0, yes/no or true/false' : `${c.type === 'int' ? 'whole number' : 'number'} from ${c.min} to ${c.max}`;
}

function readRows(file: string, columns: RubricColumn[], issues: ConfigIssue[]): ImportRow[] {
  const text = readUserFile(file, 'scores', FILE_LIMITS.config);
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return csvRows(file, text, columns, issues);
  if (ext === '.json') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message;
      // Newer engines say where; Node 20 names only the token.
      const pos = /position (\d+)/.exec(message);
      const named = /line (\d+) column/.exec(message);
      const line = named ? Number(named[1]) : pos ? text.slice(0, Number(pos[1])).split('\n').length : undefined;
      throw new ConfigError([{ file, ...(line ? { line } : {}), message: `not valid JSON (${message}); expected a Label Studio JSON export` }]);
    }
    return labelStudioRows(file, json, columns, issues);
  }
  throw new ConfigError([{ file, message: `expected a .csv file (the export, filled in) or a .json Label Studio export, got "${ext || 'no extension'}"` }]);
}

function csvRows(file: string, text: string, columns: RubricColumn[], issues: ConfigIssue[]): ImportRow[] {
  let records;
  try {
    // The export neutralised cells that would start a formula; read them as they were written.
    records = parseCsv(text).map(r => ({ ...r, fields: r.fields.map(restoreCell) }));
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new ConfigError([{ file, line: error.line, message: `CSV syntax: ${error.message}` }]);
    throw error;
  }
  const header = records[0];
  if (!header) throw new ConfigError([{ file, message: 'the file is empty; expected the header row of the export' }]);
  const index = new Map(header.fields.map((h, i) => [h.trim(), i]));
  const missing = [ID_COLUMN, ...columns.map(c => c.column)].filter(c => !index.has(c));
  if (missing.length > 0) {
    throw new ConfigError(missing.map(c => ({ file, line: header.line, field: c, message: `the header has no column "${c}"; expected the columns of the export: ${[ID_COLUMN, ...columns.map(x => x.column)].join(', ')}` })));
  }
  return records.slice(1).flatMap(rec => {
    if (rec.fields.length !== header.fields.length) {
      issues.push({ file, line: rec.line, message: `the row has ${rec.fields.length} fields, the header ${header.fields.length}; quote values that hold commas or line breaks` });
      return [];
    }
    const comment = index.has(COMMENT_COLUMN) ? rec.fields[index.get(COMMENT_COLUMN)!]!.trim() : '';
    return [{
      line: rec.line,
      id: rec.fields[index.get(ID_COLUMN)!],
      values: Object.fromEntries(columns.map(c => [c.column, rec.fields[index.get(c.column)!]])),
      ...(comment ? { comment } : {}),
    }];
  });
}

type Target = { trialId: string; exportId: string };

async function storedIds(store: Store, runId: string, ev: StoredEvaluation): Promise<Map<string, Target>> {
  const keys = (await store.listArtifacts(runId, BLIND_EXPORT_KIND)).map(a => a.value as unknown as BlindKey).filter(k => k.evaluation.version === ev.version);
  if (keys.length === 0) throw new ConfigError([{ field: 'run-id', message: `run ${runId} has no blind export of its current rubric; export one first (${commandHint(['scenario', 'export', runId, '--out', 'blind.csv'], store.url)}), or pass --key <private key file>` }]);
  return new Map(keys.flatMap(k => k.items.map(i => [i.id, { trialId: i.trialId, exportId: k.exportId }] as const)));
}

function keyFileIds(file: string, runId: string, ev: StoredEvaluation): Map<string, Target> {
  const read = readUserText(file, 'key file', FILE_LIMITS.config);
  if ('problem' in read) throw new ConfigError([{ file, field: '--key', message: read.problem }]);
  let key: BlindKey;
  try {
    key = JSON.parse(read.text) as BlindKey;
  } catch (error) {
    throw new ConfigError([{ file, field: '--key', message: `cannot read the key file: ${(error as Error).message}` }], { cause: error });
  }
  if (key?.kind !== 'paideia.blind-key.v1' || !Array.isArray(key.items)) throw new ConfigError([{ file, field: '--key', message: 'not a Paideia blind-export key (kind paideia.blind-key.v1)' }]);
  if (key.runId !== runId) throw new ConfigError([{ file, field: '--key', message: `the key belongs to run ${key.runId}, not ${runId}` }]);
  if (key.evaluation?.version !== ev.version) throw new ConfigError([{ file, field: '--key', message: `the key was made for rubric version ${key.evaluation?.version}; the run's rubric is now ${ev.version}` }]);
  return new Map(key.items.map(i => [i.id, { trialId: i.trialId, exportId: key.exportId }]));
}
