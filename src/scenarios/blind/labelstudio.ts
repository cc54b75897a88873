import type { ConfigIssue } from '../../core/errors.js';
import { escapeHtml as x } from '../../core/escape.js';
import { COMMENT_COLUMN, scaleText, type ImportRow, type RubricColumn } from './columns.js';
import type { BlindExport } from './export.js';

/** Name of the opaque id in task data; Label Studio keeps `data` as given through export. */
export const LS_ID = 'paideia_id';

/** Label Studio task import format: a JSON list of `{ data }` objects. */
export function labelStudioTasks(b: BlindExport): string {
  return JSON.stringify(b.items.map(i => ({ data: { [LS_ID]: i.id, task: i.task, transcript: i.transcript } })), null, 2) + '\n';
}

/**
 * The labeling config: the task and the transcript as text, then one control per rubric field:
 * a Rating (stars 1..max) for whole-number fields that start at 1, a Number with min, max and
 * step otherwise (bool fields are 0/1), all required; an optional comment.
 */
export function labelStudioConfig(b: BlindExport): string {
  const controls = b.columns.map(c => {
    const header = `<Header value="${x(`${c.column} (${c.dimension}; ${scaleText(c)})${c.description ? `: ${c.description}` : ''}`)}"/>`;
    const control = c.type === 'int' && c.min === 1
      ? `<Rating name="${x(c.control)}" toName="transcript" maxRating="${c.max}" required="true"/>`
      : `<Number name="${x(c.control)}" toName="transcript" min="${c.min}" max="${c.max}" step="${c.type === 'float' ? '0.01' : '1'}" required="true"/>`;
    return `  ${header}\n  ${control}`;
  });
  return [
    '<View>',
    '  <Header value="Task"/>',
    '  <Text name="task" value="$task"/>',
    '  <Header value="Dialogue"/>',
    '  <Text name="transcript" value="$transcript"/>',
    ...controls,
    '  <Header value="Comment (optional)"/>',
    `  <TextArea name="${COMMENT_COLUMN}" toName="transcript" rows="3" maxSubmissions="1"/>`,
    '</View>',
    '',
  ].join('\n');
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Rows of a Label Studio export: the full JSON export (`annotations[].result[]` with
 * `from_name` and `value.rating` / `value.number` / `value.text`) or JSON-MIN (flat objects).
 * A task nobody annotated is skipped; one annotated twice is an error, as the scores of one file
 * belong to one `--rater`.
 */
export function labelStudioRows(file: string, json: unknown, columns: ReadonlyArray<RubricColumn>, issues: ConfigIssue[]): ImportRow[] {
  if (!Array.isArray(json)) {
    issues.push({ file, message: 'expected a Label Studio JSON export: a list of tasks ([{"data": ..., "annotations": [...]}, ...])' });
    return [];
  }
  const rows: ImportRow[] = [];
  json.forEach((task: unknown, i) => {
    const row = i + 1;
    const at = (field: string, message: string) => issues.push({ file, field: `row ${row}${field ? `.${field}` : ''}`, message });
    if (!isObject(task)) return at('', 'expected a task object');
    if (!Array.isArray(task.annotations)) {
      // JSON-MIN: the data and the control values side by side.
      const values = Object.fromEntries(columns.map(c => [c.column, task[c.control]]));
      rows.push({ row, id: typeof task[LS_ID] === 'string' ? task[LS_ID] : undefined, values, ...(typeof task[COMMENT_COLUMN] === 'string' ? { comment: task[COMMENT_COLUMN] } : {}) });
      return;
    }
    const data = isObject(task.data) ? task.data : {};
    const id = typeof data[LS_ID] === 'string' ? data[LS_ID] : undefined;
    const done = task.annotations.filter((a): a is Json => isObject(a) && a.was_cancelled !== true);
    // Not annotated yet: an empty row, counted as skipped.
    if (done.length === 0) return void rows.push({ row, id, values: {} });
    if (done.length > 1) {
      return at('annotations', `the task has ${done.length} annotations (by ${done.map(a => JSON.stringify(a.completed_by ?? '?')).join(', ')}); import one annotator per --rater (filter the export by annotator in Label Studio)`);
    }
    const result = Array.isArray(done[0]!.result) ? done[0]!.result.filter(isObject) : [];
    const byName = new Map(result.map(r => [r.from_name, isObject(r.value) ? r.value : {}]));
    const values = Object.fromEntries(columns.map(c => {
      const v = byName.get(c.control);
      return [c.column, v === undefined ? undefined : v.rating ?? v.number ?? v.choices ?? v.text];
    }));
    const text = byName.get(COMMENT_COLUMN)?.text;
    const comment = Array.isArray(text) ? text.join('\n') : typeof text === 'string' ? text : undefined;
    rows.push({ row, id, values, ...(comment ? { comment } : {}) });
  });
  return rows;
}
