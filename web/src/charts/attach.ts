import { api, ApiError } from '../api.js';
import { h, put } from '../dom.js';
import type { RunCharts } from '../types.js';
import { tauFigures } from './tau.js';

type TauData = NonNullable<RunCharts['tau']>;
type FileKey = 'experts' | 'outcomes' | 'observations';
type Files = Partial<Record<FileKey, { name: string; text: string }>>;
const FILES: Array<[FileKey, string]> = [
  ['experts', 'Experts (observation,item,expert,score)'], ['outcomes', 'Outcomes (unit,outcome)'], ['observations', 'Observations (observation,unit)'],
];

/**
 * The files last analysed for a run, kept in this tab's sessionStorage so going back to the page
 * keeps the figure. They leave the browser only for the charts API, as when first chosen.
 */
export const keptFiles = {
  key: (runId: string) => `paideia.validity-files.${runId}`,
  get(runId: string): Files | undefined {
    try {
      const text = sessionStorage.getItem(this.key(runId));
      return text ? (JSON.parse(text) as Files) : undefined;
    } catch {
      return undefined;
    }
  },
  /** False when the tab cannot keep them (storage full or off): the figure stays, for this visit only. */
  set(runId: string, files: Files): boolean {
    try {
      sessionStorage.setItem(this.key(runId), JSON.stringify(files));
      return true;
    } catch {
      return false;
    }
  },
  forget(runId: string): void {
    try { sessionStorage.removeItem(this.key(runId)); } catch { /* nothing was kept */ }
  },
};

/**
 * The alignment figures, and the files `paideia validity analyze --run` takes beside the stored
 * ratings: chosen here, read by the server for this analysis only (not stored), redrawn at once,
 * and chosen again on the next visit from this tab's sessionStorage.
 */
export function alignmentSection(runId: string, data: TauData): HTMLElement {
  const figures = h('div', { 'aria-live': 'polite' }, tauFigures(data));
  const problems = h('div', { role: 'alert' });
  const kept = h('div', { class: 'kept' });
  const id = (key: string) => `attach-${key}-${runId.replace(/[^\w-]/g, '_')}`;
  const inputs = FILES.map(([key, label]) => [key, h('input', { type: 'file', id: id(key), accept: '.csv,text/csv' }), label] as const);
  const showKept = (files: Files | undefined, note = '') => put(kept, files && Object.keys(files).length ? h('p', { class: 'muted' },
    `${note}Analysed with ${Object.values(files).map(f => f.name).join(', ')}; kept in this tab for this run, so coming back draws this again. `,
    h('button', { type: 'button', onclick: () => { keptFiles.forget(runId); showKept(undefined); put(figures, tauFigures(data)); } }, 'Forget these files')) : null);
  const analyse = async (files: Files, keep: boolean) => {
    try {
      put(problems);
      put(figures, tauFigures(await api<TauData>(`/runs/${encodeURIComponent(runId)}/charts/alignment`, { method: 'POST', body: files })));
      const chosen = Object.keys(files).length > 0;
      if (keep && !chosen) keptFiles.forget(runId);
      showKept(files, keep && chosen && !keptFiles.set(runId, files) ? 'This tab cannot keep the files (too large for its storage): choose them again next time. ' : '');
    } catch (error) {
      // Files kept from an earlier visit that no longer fit the run are not tried again.
      if (!keep) keptFiles.forget(runId);
      const issues = error instanceof ApiError ? (error.body as { issues?: Array<{ file?: string; line?: number; field?: string; message: string }> }).issues : undefined;
      // The problems as a list, each once (the error's message repeats them as one line).
      put(problems, issues?.length
        ? h('div', { class: 'error' }, h('p', {}, 'Not analysed: the files have these problems.'),
          h('ul', {}, ...issues.map(i => h('li', {}, [i.file, i.line, i.field].filter(x => x !== undefined).join(':'), i.file || i.field ? ': ' : '', i.message))))
        : h('p', { class: 'error' }, (error as Error).message));
    }
  };
  const form = h('form', { class: 'filters attach', onsubmit: async e => {
    e.preventDefault();
    const body: Files = {};
    for (const [key, input] of inputs) {
      const file = input.files?.[0];
      if (file) body[key] = { name: file.name, text: await file.text() };
    }
    await analyse(body, true);
  } },
  ...inputs.map(([key, input, label]) => h('span', { class: 'field' }, h('label', { for: id(key) }, label), input)),
  h('button', { type: 'submit' }, 'Analyse with these files'));
  const earlier = keptFiles.get(runId);
  if (earlier) void analyse(earlier, false);
  return h('div', {}, h('p', { class: 'muted' }, 'Tau with experts needs expert scores (imported into the run, or a file); tau with the outcome needs an outcomes file. Files are read for this analysis only, not stored.'),
    form, kept, problems, figures);
}
