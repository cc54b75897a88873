import { api, ApiError } from '../api.js';
import { h, link, put, table } from '../dom.js';
import { flowGraph } from '../graph.js';
import { navigate } from '../nav.js';

interface Issue { line: number | null; field: string | null; message: string; text: string }
interface Check {
  issues: Issue[]; warnings: string[]; graph: Array<[string, string]>;
  outline: { models: Array<{ alias: string; spec: string }>; agents: Array<{ name: string; model: string }>; tasks: number; rubric: Array<{ field: string; dimension: string; type: string; min: number; max: number; weight: number }> } | null;
}

/**
 * The scenario editor: YAML checked as you type by the server, with the same line-accurate
 * problems as `paideia scenario validate`; the valid scenario's models, agents, tasks and rubric
 * as a form view and its directions drawn; save (the old version is kept) and run.
 */
export async function editorPage(main: HTMLElement, [name]: string[]): Promise<() => void> {
  const { names } = await api<{ names: string[] }>('/scenarios');
  if (!name) {
    put(main, h('h1', {}, 'Scenario editor'), h('p', {}, 'Open a scenario of the server\'s scenarios folder:'),
      h('ul', {}, ...names.map(n => h('li', {}, link(`/editor/${encodeURIComponent(n)}`, n)))));
    return () => undefined;
  }
  const { text } = await api<{ text: string }>(`/scenarios/${encodeURIComponent(name)}`);
  const editor = h('textarea', { id: 'yaml', class: 'yaml', spellcheck: 'false', rows: 28, 'aria-describedby': 'problems' });
  editor.value = text;
  const problems = h('div', { id: 'problems', 'aria-live': 'polite' });
  const view = h('div', { class: 'outline' });
  const status = h('p', { role: 'status' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;
  const check = async () => {
    const mine = ++latest;
    const result = await api<Check>('/scenarios/validate', { method: 'POST', body: { name, text: editor.value } });
    if (mine !== latest) return;
    put(problems, result.issues.length
      ? h('ul', { class: 'issues' }, ...result.issues.map(i => h('li', {}, h('button', { type: 'button', class: 'linkish', onclick: () => goToLine(editor, i.line) }, i.text))))
      : h('p', { class: 'ok' }, `ok: ${name} is a valid scenario`), ...result.warnings.map(w => h('p', { class: 'muted' }, `warning: ${w}`)));
    if (result.outline) drawOutline(view, result);
  };
  editor.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => void check(), 250); });
  const save = async () => {
    try {
      const r = await api<{ path: string }>(`/scenarios/${encodeURIComponent(name)}`, { method: 'POST', body: { text: editor.value } });
      put(status, `saved ${r.path} (the previous version is kept beside it)`);
      return r.path;
    } catch (e) {
      put(status, h('span', { class: 'error' }, e instanceof ApiError ? 'not saved: fix the problems listed' : (e as Error).message));
      return undefined;
    }
  };
  put(main, h('h1', {}, 'Scenario ', h('code', {}, name)),
    h('div', { class: 'editor' },
      h('div', {}, h('label', { for: 'yaml' }, 'YAML'), editor,
        h('div', { class: 'actions' },
          h('button', { type: 'button', onclick: () => void save() }, 'Save'),
          h('button', { type: 'button', class: 'primary', onclick: async () => {
            const path = await save();
            if (!path) return;
            const { runId } = await api<{ runId: string }>('/launch', { method: 'POST', body: { config: { kind: 'scenario', file: path } } });
            navigate(`/runs/${encodeURIComponent(runId)}`);
          } }, 'Save and run')),
        status),
      h('div', {}, h('h2', {}, 'Problems'), problems, view)));
  await check();
  return () => clearTimeout(timer);
}

function drawOutline(view: HTMLElement, r: Check): void {
  const o = r.outline!;
  put(view,
    h('h2', {}, 'Dialogue flow'), flowGraph(r.graph),
    table('Models', ['Alias', 'Model'], o.models.map(m => [m.alias, m.spec])),
    table('Agents', ['Agent', 'Model'], o.agents.map(a => [a.name, a.model])),
    h('p', {}, `${o.tasks} task(s)`),
    o.rubric.length ? table('Rubric', ['Field', 'Dimension', 'Type', 'Scale', 'Weight'], o.rubric.map(f => [f.field, f.dimension, f.type, `${f.min}–${f.max}`, f.weight.toFixed(2)])) : null);
}

/** Put the caret on a problem's line, so the keyboard goes straight to it. */
function goToLine(area: HTMLTextAreaElement, line: number | null): void {
  if (!line) return;
  const lines = area.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((a, l) => a + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
}
