import { dirname, extname, resolve } from 'node:path';
import { parseYamlMapping } from '../../core/config/yaml-mapping.js';
import {
  ConfigError, contentHash, FILE_LIMITS, parseJsonlLines, parseModelSpec, readUserBytes, readUserText,
  type ChatParams, type ConfigIssue, type ModelSpec,
} from '../../core/index.js';
import { CsvReader } from '../input/columns.js';
import { parseCsv } from '../input/csv.js';
import { StudyFileSchema, type Family, type StudyFile, type StudyItem, type StudyObservation } from './schema.js';

/** A study with its observations read and its raters parsed: what a run plans from and stores. */
export interface Study {
  specVersion: 'paideia.validity-study.v1';
  name: string;
  description?: string;
  file: string;
  /** Where the observations came from: inline, a file, or the judged targets of a stored run. */
  source: { type: 'inline' } | { type: 'file'; file: string } | { type: 'run'; runId: string };
  observations: StudyObservation[];
  items: StudyItem[];
  families: Family[];
  raters: ModelSpec[];
  repeats: number;
  seed: number;
  params: ChatParams;
}

/** The parts of a study file still to resolve once the store is open (observations of a stored run). */
export interface StudyDraft extends Omit<Study, 'observations'> {
  observations?: StudyObservation[];
}

/**
 * Read and check a study file; every problem at once, with file, YAML line and dot-path.
 * `observationsRun` (the CLI's --observations-run) replaces the file's `observations`.
 */
export function loadStudyFile(file: string, o: { observationsRun?: string } = {}): StudyDraft {
  const read = readUserText(file, 'study file', FILE_LIMITS.config);
  if ('problem' in read) throw new ConfigError([{ file, message: read.problem }]);
  // Unknown keys are told with every other problem of the file, not alone first.
  const { source, data, issues } = parseYamlMapping(file, read.text, StudyFileSchema, 'a study is a YAML mapping with name, observations, items, families and raters');
  const ids = new Set<string>();
  data.items.forEach((item, i) => {
    if (ids.has(item.id)) issues.push(source.issue(['items', i, 'id'], `item "${item.id}" is listed twice`));
    ids.add(item.id);
    for (const level of Object.keys(item.levels ?? {})) {
      const v = Number(level);
      if (v < item.scale.min || v > item.scale.max) issues.push(source.issue(['items', i, 'levels', level], `level ${level} is outside the scale ${item.scale.min}-${item.scale.max}`, { keyOnly: true }));
    }
  });
  const raters = Object.entries(data.raters).flatMap(([alias, spec]) => {
    try {
      return [parseModelSpec(`${alias}=${spec}`, { file, ...lineOf(source.lineOf(['raters', alias])), field: `raters.${alias}` })];
    } catch (error) {
      issues.push(...(error as ConfigError).issues);
      return [];
    }
  });
  let observations: StudyObservation[] | undefined;
  let from: Study['source'] = { type: 'inline' };
  const given = data.observations;
  if (o.observationsRun) from = { type: 'run', runId: o.observationsRun };
  else if (given === undefined) issues.push({ file, line: 1, field: 'observations', message: 'missing: list them inline, name a file ({ file: observations.csv }), or a stored run ({ run: <run-id>, or --observations-run <run-id>})' });
  else if (Array.isArray(given)) observations = given.map(ob => ({ id: ob.id, text: ob.text, ...(ob.unit ? { unit: ob.unit } : {}) }));
  else if ('file' in given) {
    const path = resolve(dirname(file), given.file);
    from = { type: 'file', file: path };
    observations = readObservationFile(path, issues);
  } else from = { type: 'run', runId: given.run };
  if (observations) uniqueIds(observations, from.type === 'file' ? from.file : file, issues);
  if (issues.length) throw new ConfigError(issues);
  const params: ChatParams = {
    ...(data.params.temperature !== undefined ? { temperature: data.params.temperature } : {}),
    ...(data.params.max_tokens !== undefined ? { maxTokens: data.params.max_tokens } : {}),
  };
  return {
    specVersion: 'paideia.validity-study.v1', name: data.name, ...(data.description ? { description: data.description } : {}), file,
    source: from, ...(observations ? { observations } : {}), items: data.items, families: [...new Set(data.families)], raters,
    repeats: data.repeats, seed: data.seed, params,
  };
}

/** What identifies a study's work: a change here is another run (the file's path is not part of it). */
export function studyHash(study: Study): string {
  return contentHash({ name: study.name, observations: study.observations, items: study.items, families: study.families, repeats: study.repeats, seed: study.seed, params: study.params });
}

const lineOf = (line: number | undefined) => (line !== undefined ? { line } : {});

/** Observations from a CSV (id,text[,unit]) or a JSONL file ({"id", "text", "unit"?} per line). */
function readObservationFile(path: string, issues: ConfigIssue[]): StudyObservation[] {
  const read = readUserBytes(path, 'observations file', FILE_LIMITS.tasks);
  if ('problem' in read) { issues.push({ file: path, message: read.problem }); return []; }
  if (extname(path).toLowerCase() === '.jsonl') {
    const text = readUserText(path, 'observations file', FILE_LIMITS.tasks);
    if ('problem' in text) { issues.push({ file: path, message: text.problem }); return []; }
    return parseJsonlLines(text.text, path, issues).flatMap(({ value, line }) => {
      const v = value as Partial<Record<'id' | 'text' | 'unit', unknown>> | null;
      const bad = (field: string, what: string) => { issues.push({ file: path, line, field, message: what }); return []; };
      if (!v || typeof v !== 'object' || Array.isArray(v)) return bad('(line)', 'expected an object {"id": ..., "text": ...}');
      if (typeof v.id !== 'string' || !/^[^\s,]+$/.test(v.id)) return bad('id', 'expected a string id with no spaces or commas');
      if (typeof v.text !== 'string' || v.text === '') return bad('text', 'expected the text the raters read');
      if (v.unit !== undefined && typeof v.unit !== 'string') return bad('unit', 'expected a string');
      return [{ id: v.id, text: v.text, ...(typeof v.unit === 'string' ? { unit: v.unit } : {}) }];
    });
  }
  let table;
  try {
    table = parseCsv(read.bytes, path);
  } catch (error) {
    issues.push(...(error as ConfigError).issues);
    return [];
  }
  const c = new CsvReader(table, ['id', 'text'], ['unit']);
  const out = c.issues.length ? [] : table.records.map(r => {
    const unit = c.has('unit') ? c.text(r, 'unit', true) : '';
    return { id: c.text(r, 'id'), text: c.text(r, 'text'), ...(unit ? { unit } : {}) };
  });
  issues.push(...c.issues);
  return out;
}

function uniqueIds(observations: StudyObservation[], file: string, issues: ConfigIssue[]): void {
  const seen = new Set<string>();
  for (const ob of observations) {
    if (seen.has(ob.id)) issues.push({ file, field: 'observations', message: `observation "${ob.id}" is listed twice; ids must be unique` });
    seen.add(ob.id);
  }
}
