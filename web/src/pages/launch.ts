import { api, ApiError } from '../api.js';
import { h, put } from '../dom.js';
import { navigate } from '../nav.js';

interface JsonSchema { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; const?: unknown; default?: unknown; required?: string[]; minimum?: number; maximum?: number }
interface LaunchInfo {
  kinds: Array<{ name: string; schema: JsonSchema }>;
  suites: string[]; scenarios: string[]; baselines: string[];
  providers: Array<{ provider: string; example: string; keyVariable: string | null; ready: boolean }>;
}

/** The fields asked first; every other field of a kind's config follows, drawn from its JSON Schema. */
const FIRST = ['suites', 'file', 'models', 'repeats', 'concurrency', 'costCapUsd'];
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
  const main1 = h('div', { class: 'fields' });
  const more = h('div', { class: 'fields' });
  for (const [name, schema] of props) {
    const { el, read } = field(name, schema, choices[name], info);
    (FIRST.includes(name) ? main1 : more).append(el);
    readers.push(read);
  }
  const problems = h('div', { role: 'alert', class: 'error' });
  const form = h('form', {
    class: 'launch', onsubmit: async e => {
      e.preventDefault();
      const config: Record<string, unknown> = { kind: kind.name };
      for (const r of readers) { const kv = r(); if (kv) config[kv[0]] = kv[1]; }
      put(problems);
      try {
        const { runId } = await api<{ runId: string }>('/launch', { method: 'POST', body: { config } });
        navigate(`/runs/${encodeURIComponent(runId)}`);
      } catch (error) {
        const issues = (error instanceof ApiError ? (error.body as { issues?: Array<{ field?: string; message: string }> }).issues : undefined) ?? [{ message: (error as Error).message }];
        put(problems, h('ul', {}, ...issues.map(i => h('li', {}, i.field ? `${i.field}: ${i.message}` : i.message))));
      }
    },
  },
  h('label', {}, 'Kind of run ', h('select', { name: 'kind', onchange: ev => navigate(`/launch?kind=${(ev.target as HTMLSelectElement).value}`, true) },
    ...info.kinds.map(k => h('option', { value: k.name, selected: k.name === kind.name }, k.name)))),
  main1,
  h('details', {}, h('summary', {}, 'More settings'), more),
  problems,
  h('button', { type: 'submit', class: 'primary' }, 'Start run'));
  put(main, h('h1', {}, 'Launch a run'),
    h('p', {}, 'Models are called with the keys in the server\'s environment; keys never reach this page. ',
      ...info.providers.map(p => h('span', { class: p.ready ? 'ok' : 'muted' }, `${p.provider}: ${p.ready ? 'ready' : `set ${p.keyVariable} on the server`}. `))),
    form,
    h('datalist', { id: 'model-choices' }, ...[...info.baselines, ...info.providers.filter(p => p.ready).map(p => p.example)].map(m => h('option', { value: m }))));
}

const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) : FIRST.length);

function field(name: string, s: JsonSchema, choices: string[] | undefined, info: LaunchInfo): { el: HTMLElement; read: () => [string, unknown] | undefined } {
  const id = `f-${name}`;
  const label = LABELS[name] ?? name.replace(/([A-Z])/g, ' $1').toLowerCase();
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'array' && choices) {
    const boxes = choices.map(c => h('input', { type: 'checkbox', name, value: c }));
    return {
      el: h('fieldset', {}, h('legend', {}, label), ...choices.map((c, i) => h('label', { class: 'check' }, boxes[i]!, ' ', h('code', {}, c)))),
      read: () => { const v = boxes.filter(b => b.checked).map(b => b.value); return v.length ? [name, v] : undefined; },
    };
  }
  if (type === 'array') {
    const area = h('textarea', { id, name, rows: 3, ...(name === 'models' ? { placeholder: info.baselines[0] ?? '' } : {}) });
    const hint = name === 'models' ? h('input', { type: 'text', list: 'model-choices', 'aria-label': 'add a model', placeholder: 'add a model…', onchange: e => {
      const input = e.target as HTMLInputElement;
      area.value = `${area.value.trim()}\n${input.value}`.trim(); input.value = '';
    } }) : null;
    return {
      el: h('div', { class: 'field' }, h('label', { for: id }, label), area, hint),
      read: () => { const v = area.value.split('\n').map(x => x.trim()).filter(Boolean); return v.length ? [name, v] : undefined; },
    };
  }
  if (type === 'boolean') {
    const box = h('input', { type: 'checkbox', id, name, checked: s.default === true });
    return { el: h('div', { class: 'field' }, h('label', { for: id }, box, ` ${label}`)), read: () => (box.checked !== (s.default === true) ? [name, box.checked] : undefined) };
  }
  if (type === 'string' && choices) {
    const select = h('select', { id, name }, h('option', { value: '' }, 'choose…'), ...choices.map(c => h('option', { value: c }, c)));
    return { el: h('div', { class: 'field' }, h('label', { for: id }, label), select), read: () => (select.value ? [name, select.value] : undefined) };
  }
  const numeric = type === 'number' || type === 'integer';
  const input = h('input', {
    id, name, type: numeric ? 'number' : 'text', step: type === 'integer' ? 1 : 'any',
    ...(s.minimum !== undefined ? { min: s.minimum } : {}), ...(s.default !== undefined ? { placeholder: String(s.default) } : {}),
  });
  return {
    el: h('div', { class: 'field' }, h('label', { for: id }, label), input),
    read: () => (input.value === '' ? undefined : [name, numeric ? Number(input.value) : input.value]),
  };
}
