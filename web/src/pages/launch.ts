import { api, ApiError } from '../api.js';
import { h, put } from '../dom.js';
import { navigate } from '../nav.js';

interface JsonSchema { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; anyOf?: JsonSchema[]; const?: unknown; default?: unknown; required?: string[]; minimum?: number; maximum?: number }
interface LaunchInfo {
  kinds: Array<{ name: string; schema: JsonSchema }>;
  suites: string[]; scenarios: string[]; baselines: string[];
  providers: Array<{ provider: string; example: string; keyVariable: string | null; ready: boolean }>;
}

/** The fields asked first; every other field of a kind's config follows, drawn from its JSON Schema. */
const FIRST = ['suites', 'file', 'models', 'repeats', 'concurrency', 'costCapUsd'];
/** What a kind's `file` is (a study's file for validity runs; a scenario's otherwise). */
const FILE_LABELS: Record<string, string> = { validity: 'Study file' };
const LABELS: Record<string, string> = { suites: 'Suites', file: 'Scenario file', models: 'Models (one per line)', repeats: 'Repeats', concurrency: 'Concurrency', costCapUsd: 'Cost cap (USD)' };

/**
 * Start a run of any kind the server knows. The form is drawn from the kind's config schema, so a
 * new kind of run needs no page code; suites and scenarios are offered from the server's folders.
 */
export async function launchPage(main: HTMLElement, _p: string[], query: URLSearchParams): Promise<void> {
  const info = await api<LaunchInfo>('/launch');
  const kindName = query.get('kind') ?? info.kinds[0]?.name ?? '';
  const kind = info.kinds.find(k => k.name === kindName) ?? info.kinds[0]!;
  const choices: Record<string, string[]> = { suites: info.suites, file: info.scenarios };
  const props = Object.entries(kind.schema.properties ?? {}).filter(([n, s]) => n !== 'kind' && s.const === undefined);
  props.sort(([a], [b]) => rank(a) - rank(b));
  const readers: Array<() => [string, unknown] | undefined> = [];
  const fields = new Map<string, Field>();
  const main1 = h('div', { class: 'fields' });
  const more = h('div', { class: 'fields' });
  const details = h('details', {}, h('summary', {}, 'More settings'), more);
  for (const [name, schema] of props) {
    const f = field(name, schema, choices[name], info, name === 'file' ? FILE_LABELS[kind.name] : undefined);
    (FIRST.includes(name) ? main1 : more).append(f.el);
    readers.push(f.read);
    fields.set(name, f);
  }
  const problems = h('div', { role: 'alert', class: 'error' });
  // Each problem beside its field (and in the list above the button, which leads to it).
  const show = (issues: Array<{ field?: string; message: string; file?: string; line?: number }>) => {
    for (const f of fields.values()) f.invalid([]);
    const at = new Map<string, string[]>();
    issues = issues.map(i => (i.field && fields.has(i.field) && MISSING.test(i.message) ? { ...i, message: fields.get(i.field)!.missing } : i));
    for (const i of issues) if (i.field && fields.has(i.field)) (at.get(i.field) ?? at.set(i.field, []).get(i.field)!).push(i.message);
    for (const [name, messages] of at) fields.get(name)!.invalid(messages);
    if ([...at.keys()].some(n => !FIRST.includes(n))) details.open = true;
    put(problems, issues.length ? h('ul', {}, ...issues.map(i => {
      const f = i.field ? fields.get(i.field) : undefined;
      const where = [i.file && (i.line ? `${i.file}:${i.line}` : i.file), f ? f.label : i.field].filter(Boolean).join(', ');
      const text = where ? `${where}: ${i.message}` : i.message;
      return h('li', {}, f ? h('button', { type: 'button', class: 'linkish', onclick: () => f.focus() }, text) : text);
    })) : null);
  };
  const form = h('form', {
    class: 'launch', onsubmit: async e => {
      e.preventDefault();
      const config: Record<string, unknown> = { kind: kind.name };
      for (const r of readers) { const kv = r(); if (kv) config[kv[0]] = kv[1]; }
      show([]);
      try {
        const { runId } = await api<{ runId: string }>('/launch', { method: 'POST', body: { config } });
        navigate(`/runs/${encodeURIComponent(runId)}`);
      } catch (error) {
        show((error instanceof ApiError ? (error.body as { issues?: Array<{ field?: string; message: string }> }).issues : undefined) ?? [{ message: (error as Error).message }]);
      }
    },
  },
  h('label', {}, 'Kind of run ', h('select', { name: 'kind', onchange: ev => navigate(`/launch?kind=${(ev.target as HTMLSelectElement).value}`, true) },
    ...info.kinds.map(k => h('option', { value: k.name, selected: k.name === kind.name }, k.name)))),
  main1,
  details,
  problems,
  h('button', { type: 'submit', class: 'primary' }, 'Start run'));
  put(main, h('h1', {}, 'Launch a run'),
    h('p', {}, 'Models are called with the keys in the server\'s environment; keys never reach this page. ',
      ...info.providers.map(p => h('span', { class: p.ready ? 'ok' : 'muted' }, `${p.provider}: ${p.ready ? 'ready' : `set ${p.keyVariable} on the server`}. `))),
    form,
    h('datalist', { id: 'model-choices' }, ...[...info.baselines, ...info.providers.filter(p => p.ready).map(p => p.example)].map(m => h('option', { value: m }))));
}

/** zod's words for a field left empty; the page says what to do instead. */
const MISSING = /received undefined$/;

const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) : FIRST.length);

/** One field of the form: its element, its value, and where the server's problems with it are shown. */
interface Field {
  el: HTMLElement;
  label: string;
  /** What to do when it is left empty: "choose a study file". */
  missing: string;
  read: () => [string, unknown] | undefined;
  invalid: (messages: string[]) => void;
  focus: () => void;
}

function field(name: string, s: JsonSchema, choices: string[] | undefined, info: LaunchInfo, label = labelOf(name)): Field {
  const drawn = drawField(name, s, choices, info, label);
  const errorId = `e-${name}`;
  const error = h('p', { id: errorId, class: 'error field-error', hidden: true });
  drawn.el.append(error);
  return {
    ...drawn, label,
    missing: !choices ? `fill in ${label}` : drawn.controls.length > 1 ? `choose one or more ${label.toLowerCase()}` : `choose a ${label.toLowerCase()}`,
    invalid(messages) {
      error.hidden = messages.length === 0;
      error.textContent = messages.join(' ');
      for (const c of drawn.controls) {
        if (messages.length) { c.setAttribute('aria-invalid', 'true'); c.setAttribute('aria-describedby', errorId); } else { c.removeAttribute('aria-invalid'); c.removeAttribute('aria-describedby'); }
      }
    },
    focus: () => drawn.controls[0]?.focus(),
  };
}

const labelOf = (name: string) => LABELS[name] ?? name.replace(/([A-Z])/g, ' $1').toLowerCase();

function drawField(name: string, s: JsonSchema, choices: string[] | undefined, info: LaunchInfo, label: string): { el: HTMLElement; controls: HTMLElement[]; read: () => [string, unknown] | undefined } {
  const id = `f-${name}`;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'array' && choices) {
    const boxes = choices.map(c => h('input', { type: 'checkbox', name, value: c }));
    return {
      el: h('fieldset', {}, h('legend', {}, label), ...choices.map((c, i) => h('label', { class: 'check' }, boxes[i]!, ' ', h('code', {}, c)))),
      controls: boxes,
      read: () => { const v = boxes.filter(b => b.checked).map(b => b.value); return v.length ? [name, v] : undefined; },
    };
  }
  if (type === 'array') {
    const example = name === 'models' ? info.baselines[0] ?? '' : Array.isArray(s.default) ? s.default.map(String).join('\n') : undefined;
    const area = h('textarea', { id, name, rows: 3, ...(example !== undefined ? { placeholder: example } : {}) });
    const hint = name === 'models' ? h('input', { type: 'text', list: 'model-choices', 'aria-label': 'add a model', placeholder: 'add a model…', onchange: e => {
      const input = e.target as HTMLInputElement;
      area.value = `${area.value.trim()}\n${input.value}`.trim(); input.value = '';
    } }) : null;
    return {
      el: h('div', { class: 'field' }, h('label', { for: id }, label), area, hint),
      controls: [area],
      read: () => { const v = area.value.split('\n').map(x => x.trim()).filter(Boolean).map(x => lineValue(x, s.items)); return v.length ? [name, v] : undefined; },
    };
  }
  if (type === 'boolean') {
    const box = h('input', { type: 'checkbox', id, name, checked: s.default === true });
    return { el: h('div', { class: 'field' }, h('label', { for: id }, box, ` ${label}`)), controls: [box], read: () => (box.checked !== (s.default === true) ? [name, box.checked] : undefined) };
  }
  if (type === 'string' && choices) {
    const select = h('select', { id, name }, h('option', { value: '' }, 'choose…'), ...choices.map(c => h('option', { value: c }, c)));
    return { el: h('div', { class: 'field' }, h('label', { for: id }, label), select), controls: [select], read: () => (select.value ? [name, select.value] : undefined) };
  }
  const numeric = type === 'number' || type === 'integer';
  const input = h('input', {
    id, name, type: numeric ? 'number' : 'text', step: type === 'integer' ? 1 : 'any',
    ...(s.minimum !== undefined ? { min: s.minimum } : {}), ...(s.default !== undefined ? { placeholder: String(s.default) } : {}),
  });
  return {
    el: h('div', { class: 'field' }, h('label', { for: id }, label), input),
    controls: [input],
    read: () => (input.value === '' ? undefined : [name, numeric ? Number(input.value) : input.value]),
  };
}

/**
 * One line of a list field as its items' schema takes it: a number where numbers are allowed
 * (frames: `all` or 3), true or false where the items are yes/no (on, off, yes, no, true, false),
 * else the text as written, for the server to judge.
 */
function lineValue(line: string, items: JsonSchema | undefined): unknown {
  const options = items?.anyOf ?? (items ? [items] : []);
  if (options.some(o => o.const === line)) return line;
  const types = new Set(options.flatMap(o => (Array.isArray(o.type) ? o.type : o.type ? [o.type] : [])));
  const word = line.toLowerCase();
  if (types.has('boolean') && ['true', 'on', 'yes'].includes(word)) return true;
  if (types.has('boolean') && ['false', 'off', 'no'].includes(word)) return false;
  if ((types.has('integer') || types.has('number')) && line !== '' && Number.isFinite(Number(line))) return Number(line);
  return line;
}
