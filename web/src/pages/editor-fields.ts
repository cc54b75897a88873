import { isMap, isScalar, isSeq, type Document } from 'yaml';
import { h } from '../dom.js';

export type Path = Array<string | number>;

/**
 * How the form writes into the scenario's YAML document: `set` a value at a path (the YAML text
 * is rewritten from the document; comments of untouched parts stay), `changed(true)` when the
 * form's shape changed (a row added or removed) and must be drawn again.
 */
export interface Binding {
  doc: Document;
  changed(structural: boolean): void;
}

export const valueAt = (b: Binding, path: Path): unknown => {
  const node = b.doc.getIn(path, true);
  return isScalar(node) ? node.value : node === undefined ? undefined : b.doc.getIn(path);
};

/** A plain JS copy of the node at a path (lists and maps as arrays and objects). */
export const jsAt = (b: Binding, path: Path): unknown => {
  const node = b.doc.getIn(path, true) as { toJSON?: () => unknown } | undefined;
  return node && typeof node === 'object' && 'toJSON' in node && node.toJSON ? node.toJSON() : node === undefined ? undefined : valueAt(b, path);
};

export function setAt(b: Binding, path: Path, value: unknown, structural = false): void {
  // Lists and maps go in as YAML nodes, so later edits can reach inside them by path.
  if (value === undefined || value === '') b.doc.deleteIn(path); else b.doc.setIn(path, value !== null && typeof value === 'object' ? b.doc.createNode(value) : value);
  b.changed(structural);
}

/** A labelled text input bound to a path (empty deletes the key). */
export function textField(b: Binding, label: string, path: Path, o: { multiline?: boolean; list?: string; bare?: boolean } = {}): HTMLElement {
  const current = valueAt(b, path);
  const attrs = { 'aria-label': label, ...(o.list ? { list: o.list } : {}), oninput: (e: Event) => setAt(b, path, (e.target as HTMLInputElement).value) };
  const input = o.multiline ? h('textarea', { ...attrs, rows: 3 }) : h('input', { type: 'text', ...attrs });
  input.value = current === undefined || current === null ? '' : String(current);
  return o.bare ? input : h('label', { class: 'field' }, label, input);
}

/** A number input bound to a path (empty deletes the key; a non-number is not written). */
export function numberField(b: Binding, label: string, path: Path, step = 'any'): HTMLElement {
  const input = h('input', { type: 'number', step, 'aria-label': label, oninput: e => {
    const raw = (e.target as HTMLInputElement).value;
    if (raw === '') setAt(b, path, undefined); else if (Number.isFinite(Number(raw))) setAt(b, path, Number(raw));
  } });
  const current = valueAt(b, path);
  input.value = typeof current === 'number' ? String(current) : '';
  return input;
}

/** A select bound to a path; `''` (when offered) deletes the key. */
export function selectField(b: Binding, label: string, path: Path, options: string[]): HTMLSelectElement {
  const current = String(valueAt(b, path) ?? '');
  const all = options.includes(current) ? options : [current, ...options];
  return h('select', { 'aria-label': label, onchange: e => setAt(b, path, (e.target as HTMLSelectElement).value) },
    ...all.map(o => h('option', { value: o, selected: o === current }, o === '' ? '(none)' : o)));
}

/** A button; a `Remove ...` one shows only "Remove" (what it removes is in its row) and says the rest to screen readers. */
export function button(label: string, onclick: () => void, className = ''): HTMLButtonElement {
  const [, verb, rest] = /^(Remove(?: agent)?)( .*)$/.exec(label) ?? [];
  return h('button', { type: 'button', class: className, onclick }, ...(verb ? [verb, h('span', { class: 'sr-only' }, rest)] : [label]));
}

/** Remove entry `index` of the list at `path`. */
export function removeAt(b: Binding, path: Path, index: number): void {
  const seq = b.doc.getIn(path, true);
  if (isSeq(seq)) seq.items.splice(index, 1);
  b.changed(true);
}

/** Append a value to the list at `path` (made when absent). */
export function appendTo(b: Binding, path: Path, value: unknown): void {
  const seq = b.doc.getIn(path, true);
  if (isSeq(seq)) seq.items.push(b.doc.createNode(value)); else b.doc.setIn(path, b.doc.createNode([value]));
  b.changed(true);
}

/** The keys of the map at `path`, in file order. */
export function keysAt(b: Binding, path: Path): string[] {
  const map = b.doc.getIn(path, true);
  return isMap(map) ? map.items.map(p => String(isScalar(p.key) ? p.key.value : p.key)) : [];
}

/** Rename a key of the map at `path`, keeping its place and value. */
export function renameKey(b: Binding, path: Path, from: string, to: string): void {
  const map = b.doc.getIn(path, true);
  if (!isMap(map) || !to || from === to || keysAt(b, path).includes(to)) return;
  const pair = map.items.find(p => String(isScalar(p.key) ? p.key.value : p.key) === from);
  // The key node itself is kept, with whatever comments the YAML parser attached to it.
  if (pair && isScalar(pair.key)) pair.key.value = to;
  else if (pair) pair.key = b.doc.createNode(to);
  b.changed(true);
}

/** A fresh name not yet among `taken`: `base_2`, `base_3`, ... */
export function freshName(base: string, taken: string[]): string {
  let n = taken.length + 1;
  while (taken.includes(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}
