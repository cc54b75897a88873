import { api } from '../api.js';
import { h, link, num, put } from '../dom.js';
import { reportFigures } from '../charts/index.js';
import type { RunCharts, RunDetail } from '../types.js';

/** Several runs side by side: each measure and model, one column per run (mean, interval and n); then each run's report figures. */
export async function comparePage(main: HTMLElement, _p: string[], query: URLSearchParams): Promise<void> {
  const ids = (query.get('runs') ?? '').split(',').filter(Boolean);
  if (ids.length < 2) { put(main, h('h1', {}, 'Compare runs'), h('p', {}, 'Select two or more runs on the ', link('/runs', 'runs page'), '.')); return; }
  const [runs, charts] = await Promise.all([
    Promise.all(ids.map(id => api<RunDetail>(`/runs/${encodeURIComponent(id)}`))),
    Promise.all(ids.map(id => api<RunCharts>(`/runs/${encodeURIComponent(id)}/charts`))),
  ]);
  const keys = [...new Set(runs.flatMap(r => r.results.map(x => `${x.measure}\u0000${x.model}`)))].sort();
  put(main, h('h1', {}, 'Compare runs'),
    h('table', { class: 'results' },
      h('caption', {}, 'Mean over items with 95% interval and n, per run'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Measure'), h('th', { scope: 'col' }, 'Model'),
        ...runs.map(r => h('th', { scope: 'col' }, link(`/runs/${encodeURIComponent(r.id)}`, h('code', {}, r.id.slice(0, 12))))))),
      h('tbody', {}, ...keys.map(k => {
        const [measure, model] = k.split('\u0000') as [string, string];
        // The same alias may stand for another model in another run: each spec is said.
        const specs = [...new Set(runs.flatMap(r => r.models.filter(m => m.alias === model && m.spec !== model).map(m => m.spec)))];
        return h('tr', {}, h('td', {}, measure), h('td', {}, specs.length ? `${model} (${specs.join(' / ')})` : model), ...runs.map(r => {
          const x = r.results.find(y => y.measure === measure && y.model === model);
          return h('td', {}, x ? `${num(x.mean)} [${num(x.low)}, ${num(x.high)}] n=${x.n}` : '–');
        }));
      }))),
    // Each run's own report figures (paired differences with the overlap warning, radar, ...), run by run.
    ...runs.map((r, i) => h('section', { 'aria-labelledby': `run-${i}-h` },
      h('h2', { id: `run-${i}-h` }, `Run `, h('code', {}, r.id.slice(0, 12)), ` (${r.kind})`), ...reportFigures(r.id, charts[i]!, `run-${i}`))));
}
