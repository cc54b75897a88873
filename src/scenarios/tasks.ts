import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConfigIssue } from '../core/errors.js';
import { contentHash } from '../core/hash.js';
import { parseJsonlLines } from '../core/jsonl.js';
import { parseCsv, CsvSyntaxError } from './csv.js';
import type { ScenarioFile } from './schema.js';
import type { ScenarioTask } from './types.js';
import type { YamlSource } from '../core/config/yaml-source.js';

type Vars = Record<string, string>;

/**
 * The task list: `iter` takes the variable sets in order (from `content` or a JSONL/CSV `file`);
 * `union` takes the Cartesian product of the lists, first variable slowest, in file order, so
 * the same file always gives the same tasks in the same order.
 */
export function buildTasks(tasks: ScenarioFile['tasks'], baseDir: string, source: YamlSource, issues: ConfigIssue[]): ScenarioTask[] {
  const hasContent = tasks.content !== undefined;
  const hasFile = tasks.file !== undefined;
  if (hasContent === hasFile) {
    issues.push(source.issue(['tasks'], hasContent ? 'give either content or file, not both' : 'give the tasks as content (a list or lists of values) or as a file (JSONL or CSV)'));
    return [];
  }
  let sets: Vars[];
  if (hasFile) {
    if (tasks.mode !== 'iter') {
      issues.push(source.issue(['tasks', 'mode'], 'a task file holds one variable set per line or row: use mode: iter'));
      return [];
    }
    sets = readTaskFile(resolve(baseDir, tasks.file!), source, issues);
  } else if (tasks.mode === 'iter') {
    if (!Array.isArray(tasks.content)) {
      issues.push(source.issue(['tasks', 'content'], 'mode iter takes a list of variable sets, e.g. - {persona: ..., question: ...}; for lists of values per variable use mode: union'));
      return [];
    }
    sets = tasks.content.map(row => stringify(row));
  } else {
    if (Array.isArray(tasks.content)) {
      issues.push(source.issue(['tasks', 'content'], 'mode union takes lists of values per variable, e.g. persona: [...] and question: [...]; for a list of variable sets use mode: iter'));
      return [];
    }
    const content = tasks.content!;
    for (const [key, list] of Object.entries(content)) {
      if (list.length === 0) issues.push(source.issue(['tasks', 'content', key], `the list of "${key}" is empty, so the product has no tasks`));
    }
    sets = cartesian(Object.entries(content).map(([k, list]) => [k, list.map(String)] as const));
  }
  if (sets.length === 0 && issues.length === 0) issues.push(source.issue(['tasks'], 'there are no tasks'));
  return identify(sets, source, issues);
}

function stringify(row: Record<string, string | number | boolean>): Vars {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]));
}

function cartesian(lists: ReadonlyArray<readonly [string, string[]]>): Vars[] {
  let out: Vars[] = [{}];
  for (const [key, values] of lists) out = out.flatMap(prefix => values.map(v => ({ ...prefix, [key]: v })));
  return lists.length === 0 ? [] : out;
}

function identify(sets: Vars[], source: YamlSource, issues: ConfigIssue[]): ScenarioTask[] {
  const byHash = new Map<string, ScenarioTask>();
  const ids = new Map<string, string>();
  for (const vars of sets) {
    const hash = contentHash(vars);
    if (byHash.has(hash)) continue; // the same variables twice would be the same trials
    const id = vars.id ?? `task-${hash.slice(0, 8)}`;
    if (ids.has(id) && ids.get(id) !== hash) {
      issues.push(source.issue(['tasks'], `two different tasks have the id "${id}"; task ids must be unique`));
      continue;
    }
    ids.set(id, hash);
    byHash.set(hash, { id, hash, vars });
  }
  return [...byHash.values()];
}

function readTaskFile(path: string, source: YamlSource, issues: ConfigIssue[]): Vars[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    issues.push(source.issue(['tasks', 'file'], `cannot read the task file ${path}: ${(error as Error).message}`));
    return [];
  }
  if (path.endsWith('.jsonl')) return readJsonl(path, text, issues);
  if (path.endsWith('.csv')) return readCsv(path, text, issues);
  issues.push(source.issue(['tasks', 'file'], `task files are .jsonl or .csv, got ${path}`));
  return [];
}

/** One task per JSON line; a BOM opening any line is dropped (the shared reader). */
function readJsonl(file: string, text: string, issues: ConfigIssue[]): Vars[] {
  const out: Vars[] = [];
  for (const { value, line } of parseJsonlLines(text, file, issues)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      issues.push({ file, line, message: 'each line must be a JSON object of task variables' });
      continue;
    }
    const vars: Vars = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') vars[k] = String(v);
      else issues.push({ file, line, field: k, message: 'a task variable must be a string, number or boolean' });
    }
    out.push(vars);
  }
  return out;
}

function readCsv(file: string, text: string, issues: ConfigIssue[]): Vars[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) {
      issues.push({ file, line: error.line, message: `CSV: ${error.message}` });
      return [];
    }
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) {
    issues.push({ file, message: 'the CSV file is empty; its first row names the variables' });
    return [];
  }
  const names = header.fields.map(f => f.trim());
  names.forEach((n, i) => {
    if (n === '') issues.push({ file, line: header.line, message: `column ${i + 1} of the header has no name` });
    else if (names.indexOf(n) !== i) issues.push({ file, line: header.line, message: `the column "${n}" appears twice` });
  });
  const out: Vars[] = [];
  for (const row of rows) {
    if (row.fields.length !== names.length) {
      issues.push({ file, line: row.line, message: `this row has ${row.fields.length} field(s), the header has ${names.length}` });
      continue;
    }
    out.push(Object.fromEntries(names.map((n, i) => [n, row.fields[i]!])));
  }
  return out;
}
