import type { ConfigIssue } from '../core/errors.js';
import { contentHash } from '../core/hash.js';
import { parseJsonLine } from '../core/jsonl.js';
import { FILE_LIMITS, readUserText, userLines } from '../core/user-file.js';
import { parseCsv, CsvSyntaxError } from './csv.js';
import type { ScenarioFile } from './schema.js';
import type { FileAt, ScenarioTask } from './types.js';
import type { YamlSource } from '../core/config/yaml-source.js';

type Vars = Record<string, string>;

/**
 * Most tasks a scenario may plan. Each task is a dialogue per model and repeat; a product beyond
 * this is a typo or an attack (8 lists of 20 values is 25.6 billion), not a study.
 */
export const MAX_TASKS = 250_000;

/** Where task files are read and how large they may be (tests lower the limit). */
export interface TaskFileOptions {
  maxFileBytes?: number;
  /** Filled with the line of its task file each task was read from, by task hash (problems with a task are told there). */
  origins?: Map<string, TaskOrigin>;
}

/** The line of a task file a task came from. */
export interface TaskOrigin {
  file: string;
  line: number;
}

// Set by the task file readers on each variable set they make: the sets are fresh objects.
const readAt = new WeakMap<Vars, TaskOrigin>();

/**
 * The task list: `iter` takes the variable sets in order (from `content` or a JSONL/CSV `file`);
 * `union` takes the Cartesian product of the lists, first variable slowest, in file order, so
 * the same file always gives the same tasks in the same order.
 */
export function buildTasks(tasks: ScenarioFile['tasks'], fileAt: FileAt, source: YamlSource, issues: ConfigIssue[], o: TaskFileOptions = {}): ScenarioTask[] {
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
    const at = fileAt(tasks.file!);
    if (typeof at === 'object') {
      issues.push(source.issue(['tasks', 'file'], at.refused));
      return [];
    }
    sets = readTaskFile(at, source, issues, o.maxFileBytes ?? FILE_LIMITS.tasks);
  } else if (tasks.mode === 'iter') {
    if (!Array.isArray(tasks.content)) {
      issues.push(source.issue(['tasks', 'content'], 'mode iter takes a list of variable sets, e.g. - {persona: ..., question: ...}; for lists of values per variable use mode: union'));
      return [];
    }
    sets = tasks.content.map((row, i) => {
      const set = stringify(row);
      const at = source.issue(['tasks', 'content', i], '');
      if (at.file !== undefined && at.line !== undefined) readAt.set(set, { file: at.file, line: at.line });
      return set;
    });
  } else {
    if (Array.isArray(tasks.content)) {
      issues.push(source.issue(['tasks', 'content'], 'mode union takes lists of values per variable, e.g. persona: [...] and question: [...]; for a list of variable sets use mode: iter'));
      return [];
    }
    const content = tasks.content!;
    for (const [key, list] of Object.entries(content)) {
      if (list.length === 0) issues.push(source.issue(['tasks', 'content', key], `the list of "${key}" is empty, so the product has no tasks`));
    }
    const size = Object.values(content).reduce((n, list) => n * list.length, 1);
    if (size > MAX_TASKS) {
      const factors = Object.entries(content).map(([key, list]) => `${key} (${list.length})`).join(' x ');
      issues.push(source.issue(['tasks', 'content'], `the union of ${factors} is ${size.toLocaleString('en-US')} tasks, above the limit of ${MAX_TASKS.toLocaleString('en-US')}; use fewer values, or list the combinations you need with mode: iter`));
      return [];
    }
    sets = cartesian(Object.entries(content).map(([k, list]) => [k, list.map(String)] as const));
  }
  if (sets.length === 0 && issues.length === 0) issues.push(source.issue(['tasks'], 'there are no tasks'));
  if (sets.length > MAX_TASKS) {
    issues.push(source.issue(['tasks'], `the tasks hold ${sets.length.toLocaleString('en-US')} variable sets, above the limit of ${MAX_TASKS.toLocaleString('en-US')}; split the study`));
    return [];
  }
  return identify(sets, source, issues, o.origins);
}

function stringify(row: Record<string, string | number | boolean>): Vars {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]));
}

function cartesian(lists: ReadonlyArray<readonly [string, string[]]>): Vars[] {
  let out: Vars[] = [{}];
  for (const [key, values] of lists) out = out.flatMap(prefix => values.map(v => ({ ...prefix, [key]: v })));
  return lists.length === 0 ? [] : out;
}

function identify(sets: Vars[], source: YamlSource, issues: ConfigIssue[], origins?: Map<string, TaskOrigin>): ScenarioTask[] {
  const byHash = new Map<string, ScenarioTask>();
  const ids = new Map<string, string>();
  for (const vars of sets) {
    const hash = contentHash(vars);
    if (byHash.has(hash)) continue; // the same variables twice would be the same trials
    // The whole 64-bit hash: a 32-bit prefix collides among ~100,000 tasks.
    const id = vars.id ?? `task-${hash}`;
    if (ids.has(id) && ids.get(id) !== hash) {
      // Told at the second task's own line when it has one (a task file's, or content's).
      const at = readAt.get(vars);
      const first = origins?.get(ids.get(id)!);
      const message = `two different tasks have the id "${id}"${first ? ` (the other at line ${first.line})` : ''}; task ids must be unique`;
      issues.push(at ? { file: at.file, line: at.line, field: 'id', message } : source.issue(['tasks'], message));
      continue;
    }
    ids.set(id, hash);
    byHash.set(hash, { id, hash, vars });
    const origin = readAt.get(vars);
    if (origin) origins?.set(hash, origin);
  }
  return [...byHash.values()];
}

function readTaskFile(path: string, source: YamlSource, issues: ConfigIssue[], maxBytes: number): Vars[] {
  // The extension first: nothing is opened that could not be a task file.
  const where = source.issue(['tasks', 'file'], '');
  const problem = (message: string) => issues.push({ ...where, message });
  if (path.endsWith('.jsonl')) {
    const out: Vars[] = [];
    for (const l of userLines(path, `task file ${path}`, maxBytes)) {
      if ('problem' in l) problem(l.problem);
      else if (!('text' in l)) issues.push({ file: path, line: l.line, message: 'not valid UTF-8 (save the file as UTF-8)' });
      else {
        const parsed = parseJsonLine(l.text, path, l.line, issues);
        if (parsed) readTaskLine(path, l.line, parsed.value, out, issues);
      }
    }
    return out;
  }
  if (path.endsWith('.csv')) {
    const read = readUserText(path, `task file ${path}`, maxBytes);
    if ('problem' in read) {
      // An encoding problem is the task file's own, at its line; others are the field's.
      if (read.line) issues.push({ file: path, line: read.line, message: read.problem });
      else problem(read.problem);
      return [];
    }
    return readCsv(path, read.text, issues);
  }
  problem(`task files are .jsonl or .csv, got ${path}`);
  return [];
}

/** One task per JSON line: an object of string, number or boolean variables. */
function readTaskLine(file: string, line: number, value: unknown, out: Vars[], issues: ConfigIssue[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    issues.push({ file, line, message: 'each line must be a JSON object of task variables' });
    return;
  }
  const vars: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') vars.push([k, String(v)]);
    else issues.push({ file, line, field: k, message: 'a task variable must be a string, number or boolean' });
  }
  // fromEntries keeps a variable named __proto__ as a variable; assignment would drop it.
  const set: Vars = Object.fromEntries(vars);
  readAt.set(set, { file, line });
  out.push(set);
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
    const set: Vars = Object.fromEntries(names.map((n, i) => [n, row.fields[i]!]));
    readAt.set(set, { file, line: row.line });
    out.push(set);
  }
  return out;
}
