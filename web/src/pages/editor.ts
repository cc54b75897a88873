import { api, ApiError } from '../api.js';
import { parseDocument } from 'yaml';
import { h, link, put } from '../dom.js';
import { flowGraph } from '../graph.js';
import { navigate } from '../nav.js';
import type { Binding } from './editor-fields.js';
import { scenarioForm } from './editor-form.js';

interface Issue { line: number | null; field: string | null; message: string; text: string }
interface Check {
  issues: Issue[]; warnings: string[]; graph: Array<[string, string]>;
  outline: { models: Array<{ alias: string; spec: string }>; agents: Array<{ name: string; model: string }>; tasks: number; rubric: Array<{ field: string; dimension: string; type: string; min: number; max: number; weight: number }> } | null;
}

/**
 * The scenario editor: a form (models, agents and prompts, the task grid, directions, the rubric)
 * and the YAML, kept in step both ways over one YAML document; every change is checked by the
 * server with the same line-accurate problems as `paideia scenario validate`, and the dialogue
 * flow is drawn from the checked text. Save keeps the previous version; save and run starts it.
 */
export async function editorPage(main: HTMLElement, [name]: string[]): Promise<() => void> {
  if (!name) {
    const { scenarios, folder } = await api<{ scenarios: Array<{ name: string; shipped: boolean }>; folder: string }>('/scenarios');
    put(main, h('h1', {}, 'Scenario editor'),
      h('p', {}, 'Open a scenario of the server\'s ', h('code', {}, folder), ' folder, or one Paideia ships (saving it writes your copy there):'),
      h('ul', {}, ...scenarios.map(s => h('li', {}, link(`/editor/${encodeURIComponent(s.name)}`, s.name), s.shipped ? h('span', { class: 'muted' }, ' (shipped with Paideia)') : ''))));
    return () => undefined;
  }
  const { text, shipped, folder } = await api<{ text: string; shipped: boolean; folder: string }>(`/scenarios/${encodeURIComponent(name)}`);
  const editor = h('textarea', { id: 'yaml', class: 'yaml', spellcheck: 'false', rows: 28, 'aria-describedby': 'problems' });
  editor.value = text;
  const problems = h('div', { id: 'problems', 'aria-live': 'polite' });
  const view = h('div', { class: 'outline' });
  const form = h('div', { id: 'scenario-form' });
  const status = h('p', { role: 'status' }, shipped ? `This scenario ships with Paideia: saving writes your copy to ${folder}/${name}, which the launch page then offers.` : '');
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
  const later = () => { clearTimeout(timer); timer = setTimeout(() => void check(), 250); };
  // One document behind both views: a form edit rewrites the YAML from it, a YAML edit re-reads it.
  const binding: Binding = {
    doc: parseDocument(text),
    changed(structural) {
      editor.value = binding.doc.toString({ lineWidth: 0 });
      if (structural) drawForm();
      later();
    },
  };
  const drawForm = () => {
    if (binding.doc.errors.length) {
      put(form, h('p', { class: 'muted' }, 'The YAML does not parse (see Problems): fix it there to edit with the form again.'));
      return;
    }
    put(form, scenarioForm(binding));
  };
  editor.addEventListener('input', () => {
    binding.doc = parseDocument(editor.value);
    drawForm();
    later();
  });
  const save = async () => {
    try {
      const r = await api<{ path: string; kept: string | null }>(`/scenarios/${encodeURIComponent(name)}`, { method: 'POST', body: { text: editor.value } });
      put(status, `saved ${r.path}${r.kept ? ` (the previous version is kept beside it as ${r.kept})` : ''}`);
      return r.path;
    } catch (e) {
      put(status, h('span', { class: 'error' }, e instanceof ApiError ? 'not saved: fix the problems listed' : (e as Error).message));
      return undefined;
    }
  };
  put(main, h('h1', {}, 'Scenario ', h('code', {}, name)),
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => void save() }, 'Save'),
      h('button', { type: 'button', class: 'primary', onclick: async () => {
        const path = await save();
        if (!path) return;
        try {
          const { runId } = await api<{ runId: string }>('/launch', { method: 'POST', body: { config: { kind: 'scenario', file: path } } });
          navigate(`/runs/${encodeURIComponent(runId)}`);
        } catch (e) {
          // Saved, but not run (its run still going with the file as it was, a model without a key): say why, with the run it names.
          const message = (e as Error).message;
          const named = /\b(scn-[0-9a-f]+)\b/.exec(message)?.[1];
          put(status, h('span', { class: 'error', role: 'alert', id: 'run-refused' }, `saved ${path}, but not run: ${message}`),
            named ? h('span', {}, ' ', h('a', { href: `/runs/${encodeURIComponent(named)}` }, `open run ${named}`)) : null);
        }
      } }, 'Save and run')),
    status,
    h('div', { class: 'editor' },
      h('section', { 'aria-labelledby': 'form-h' }, h('h2', { id: 'form-h' }, 'Form'),
        h('p', { class: 'muted', id: 'form-note' }, 'The form and the YAML are one scenario: edit either, the other follows. A form edit rewrites the YAML from its parsed form, so a comment next to what you change may be lost.'),
        form),
      h('section', { class: 'yaml-side' }, h('h2', {}, h('label', { for: 'yaml' }, 'YAML')), editor,
        h('h2', {}, 'Problems'), problems, view)));
  drawForm();
  await check();
  return () => clearTimeout(timer);
}

function drawOutline(view: HTMLElement, r: Check): void {
  put(view, h('h2', {}, 'Dialogue flow'), flowGraph(r.graph));
}

/** Put the caret on a problem's line, so the keyboard goes straight to it. */
function goToLine(area: HTMLTextAreaElement, line: number | null): void {
  if (!line) return;
  const lines = area.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((a, l) => a + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
}
