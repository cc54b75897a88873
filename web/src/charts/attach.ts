import { api, ApiError } from '../api.js';
import { h, put } from '../dom.js';
import type { RunCharts } from '../types.js';
import { tauFigures } from './tau.js';

type TauData = NonNullable<RunCharts['tau']>;
const FILES: Array<['experts' | 'outcomes' | 'observations', string]> = [
  ['experts', 'Experts (observation,item,expert,score)'], ['outcomes', 'Outcomes (unit,outcome)'], ['observations', 'Observations (observation,unit)'],
];

/**
 * The alignment figures, and the files `paideia validity analyze --run` takes beside the stored
 * ratings: chosen here, read by the server for this analysis only (not stored), redrawn at once.
 */
export function alignmentSection(runId: string, data: TauData): HTMLElement {
  const figures = h('div', { 'aria-live': 'polite' }, tauFigures(data));
  const problems = h('div', { role: 'alert' });
  const id = (key: string) => `attach-${key}-${runId.replace(/[^\w-]/g, '_')}`;
  const inputs = FILES.map(([key, label]) => [key, h('input', { type: 'file', id: id(key), accept: '.csv,text/csv' }), label] as const);
  const form = h('form', { class: 'filters attach', onsubmit: async e => {
    e.preventDefault();
    const body: Record<string, { name: string; text: string }> = {};
    for (const [key, input] of inputs) {
      const file = input.files?.[0];
      if (file) body[key] = { name: file.name, text: await file.text() };
    }
    try {
      put(problems);
      put(figures, tauFigures(await api<TauData>(`/runs/${encodeURIComponent(runId)}/charts/alignment`, { method: 'POST', body })));
    } catch (error) {
      const issues = error instanceof ApiError ? (error.body as { issues?: Array<{ file?: string; line?: number; field?: string; message: string }> }).issues : undefined;
      put(problems, h('p', { class: 'error' }, (error as Error).message),
        issues ? h('ul', {}, ...issues.map(i => h('li', {}, [i.file, i.line, i.field].filter(x => x !== undefined).join(':'), i.file || i.field ? ': ' : '', i.message))) : null);
    }
  } },
  ...inputs.map(([key, input, label]) => h('span', { class: 'field' }, h('label', { for: id(key) }, label), input)),
  h('button', { type: 'submit' }, 'Analyse with these files'));
  return h('div', {}, h('p', { class: 'muted' }, 'Tau with experts needs expert scores (imported into the run, or a file); tau with the outcome needs an outcomes file. Files are read for this analysis only, not stored.'),
    form, problems, figures);
}
