import { isMap, isSeq } from 'yaml';
import { h } from '../dom.js';
import { appendTo, button, freshName, jsAt, keysAt, removeAt, renameKey, textField, type Binding } from './editor-fields.js';

const CONTENT = ['tasks', 'content'];

/**
 * The task matrix. `union` with two variables (personas x problems) is a grid: one row per value
 * of the first, one column per value of the second, each cell one task; rows and columns are
 * added and removed. `iter` is a table of task rows by variable columns. Other shapes: lists.
 */
export function tasksEditor(b: Binding): HTMLElement {
  const content = b.doc.getIn(CONTENT, true);
  const mode = String(jsAt(b, ['tasks', 'mode']) ?? '');
  const body = jsAt(b, ['tasks', 'file']) !== undefined ? h('p', {}, `The tasks come from the file ${String(jsAt(b, ['tasks', 'file']))}; edit it there.`)
    : isMap(content) && keysAt(b, CONTENT).length === 2 ? unionGrid(b)
      : isMap(content) ? h('div', {}, ...keysAt(b, CONTENT).map(k => valueList(b, k)))
        : isSeq(content) ? iterTable(b) : h('p', { class: 'muted' }, 'No tasks: add tasks.content in the YAML.');
  return h('fieldset', { class: 'form-part', 'aria-labelledby': 'form-tasks' }, h('legend', { id: 'form-tasks' }, `Tasks (mode ${mode || 'unset'})`), body);
}

function unionGrid(b: Binding): HTMLElement {
  const [rowKey, colKey] = keysAt(b, CONTENT) as [string, string];
  const rows = (jsAt(b, [...CONTENT, rowKey]) as unknown[] | undefined) ?? [];
  const cols = (jsAt(b, [...CONTENT, colKey]) as unknown[] | undefined) ?? [];
  const cell = (key: string, i: number, label: string) => textField(b, label, [...CONTENT, key, i], { multiline: true, bare: true });
  return h('div', {},
    h('p', { class: 'muted' }, `${rows.length} ${rowKey} × ${cols.length} ${colKey} = ${rows.length * cols.length} tasks (every pair is one task).`),
    h('div', { class: 'grid-scroll' }, h('table', { class: 'task-grid' },
      h('caption', {}, `Task grid: ${rowKey} (rows) × ${colKey} (columns)`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `${rowKey} \\ ${colKey}`),
        ...cols.map((_, j) => h('th', { scope: 'col' }, cell(colKey, j, `${colKey} ${j + 1}`), button(`Remove ${colKey} ${j + 1}`, () => removeAt(b, [...CONTENT, colKey], j), 'linkish'))))),
      h('tbody', {}, ...rows.map((_, i) => h('tr', {},
        h('th', { scope: 'row' }, cell(rowKey, i, `${rowKey} ${i + 1}`), button(`Remove ${rowKey} ${i + 1}`, () => removeAt(b, [...CONTENT, rowKey], i), 'linkish')),
        ...cols.map((_, j) => h('td', { class: 'task-cell' }, `task ${i * cols.length + j + 1}`))))))),
    h('div', { class: 'actions' },
      button(`Add ${rowKey} (row)`, () => appendTo(b, [...CONTENT, rowKey], `new ${rowKey}`)),
      button(`Add ${colKey} (column)`, () => appendTo(b, [...CONTENT, colKey], `new ${colKey}`))));
}

function valueList(b: Binding, key: string): HTMLElement {
  const values = (jsAt(b, [...CONTENT, key]) as unknown[] | undefined) ?? [];
  return h('div', {}, h('h4', {}, key),
    h('ol', {}, ...values.map((_, i) => h('li', {}, textField(b, `${key} ${i + 1}`, [...CONTENT, key, i], { bare: true }), button(`Remove ${key} ${i + 1}`, () => removeAt(b, [...CONTENT, key], i), 'linkish')))),
    button(`Add ${key}`, () => appendTo(b, [...CONTENT, key], `new ${key}`)));
}

function iterTable(b: Binding): HTMLElement {
  const rows = (jsAt(b, CONTENT) as Array<Record<string, unknown>> | undefined) ?? [];
  const keys = [...new Set(rows.flatMap(r => Object.keys(r)))];
  const renameEverywhere = (from: string, to: string) => {
    if (!to || keys.includes(to)) return;
    rows.forEach((_, i) => { if (keysAt(b, [...CONTENT, i]).includes(from)) renameKey(b, [...CONTENT, i], from, to); });
    b.changed(true);
  };
  const dropEverywhere = (key: string) => {
    rows.forEach((_, i) => b.doc.deleteIn([...CONTENT, i, key]));
    b.changed(true);
  };
  return h('div', {},
    h('div', { class: 'grid-scroll' }, h('table', { class: 'task-grid' },
      h('caption', {}, `Tasks: ${rows.length} rows × ${keys.length} variables`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), ...keys.map(k => {
        const input = h('input', { type: 'text', 'aria-label': `Variable ${k}: name`, onchange: e => renameEverywhere(k, (e.target as HTMLInputElement).value.trim()) });
        input.value = k;
        return h('th', { scope: 'col' }, input, button(`Remove variable ${k}`, () => dropEverywhere(k), 'linkish'));
      }), h('th', { scope: 'col' }, ''))),
      h('tbody', {}, ...rows.map((_, i) => h('tr', {}, h('th', { scope: 'row' }, String(i + 1)),
        ...keys.map(k => h('td', {}, textField(b, `Task ${i + 1}: ${k}`, [...CONTENT, i, k], { bare: true }))),
        h('td', {}, button(`Remove task ${i + 1}`, () => removeAt(b, CONTENT, i), 'linkish'))))))),
    h('div', { class: 'actions' },
      button('Add task (row)', () => appendTo(b, CONTENT, Object.fromEntries(keys.map(k => [k, ''])))),
      button('Add variable (column)', () => {
        const name = freshName('variable', keys);
        const seq = b.doc.getIn(CONTENT, true);
        if (isSeq(seq)) seq.items.forEach((row, i) => { if (isMap(row)) b.doc.setIn([...CONTENT, i, name], ''); });
        b.changed(true);
      })));
}
