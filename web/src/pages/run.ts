import { api } from '../api.js';
import { resultsFigure } from '../chart.js';
import { reportFigures } from '../charts/index.js';
import { h, link, num, put, usd, when } from '../dom.js';
import { navigate } from '../nav.js';
import type { RunCharts, RunDetail, TrialPage } from '../types.js';
import { followRun } from './live.js';

const SHOWS: Array<[string, string]> = [['all', 'All trials'], ['failures', 'Failures'], ['passes', 'Passes'], ['errors', 'Errors'], ['differences', 'Models differ']];

/** One run: its state (followed live while it runs), results with intervals, and its trials filtered and paged. */
export async function runPage(main: HTMLElement, [id]: string[], query: URLSearchParams): Promise<() => void> {
  const run = await api<RunDetail>(`/runs/${encodeURIComponent(id!)}`);
  // The report's figures read the whole run: the page does not wait for them.
  const figures = h('div', { id: 'report-figures', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading the report\'s figures…'));
  void api<RunCharts>(`/runs/${encodeURIComponent(run.id)}/charts`).then(
    charts => put(figures, ...reportFigures(run.id, charts, 'report')),
    error => put(figures, h('p', { class: 'error' }, `The report's figures could not be made: ${(error as Error).message}`)),
  ).finally(() => figures.removeAttribute('aria-busy'));
  const stopFollowing: Array<() => void> = [];
  const progressBox = h('section', { class: 'live', 'aria-labelledby': 'live-h' });
  put(main,
    h('h1', {}, `Run `, h('code', {}, run.id.slice(0, 12))),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Kind'), h('dd', {}, run.kind),
      h('dt', {}, 'Status'), h('dd', {}, h('span', { class: `status status-${run.status}`, id: 'run-status' }, run.status), run.note ? ` (${run.note})` : ''),
      h('dt', {}, 'Models'), h('dd', {}, run.models.map(m => `${m.alias} (${m.spec})`).join(', ')),
      h('dt', {}, 'Trials'), h('dd', { id: 'run-counts' }, `${run.counts.done} done, ${run.counts.failed} failed, ${run.counts.pending} pending of ${run.counts.total}`,
        // Runs of several step kinds (judges, learners) say how many of each.
        run.counts.byKind.length > 1 ? ` (${run.counts.byKind.map(k => `${k.total} ${k.kind}`).join(', ')})` : ''),
      h('dt', {}, 'Cost'), h('dd', {}, usd(run.spentUsd)),
      h('dt', {}, 'Started'), h('dd', {}, h('time', { datetime: run.createdAt }, when(run.createdAt))),
      h('dt', {}, 'Export'), h('dd', {}, h('a', { href: `/api/runs/${encodeURIComponent(run.id)}/bundle.html`, download: '' }, 'Static bundle (one HTML file, no server needed)'))),
    progressBox,
    h('section', { 'aria-labelledby': 'results-h' }, h('h2', { id: 'results-h' }, 'Results'), resultsFigure(run.results), figures),
    h('section', { 'aria-labelledby': 'trials-h' }, h('h2', { id: 'trials-h' }, 'Trials'), await trialsSection(run, query)),
    run.judged ? blindSection(run) : null,
  );
  const reload = () => navigate(location.pathname + location.search, true);
  if (run.live && !run.live.finished) stopFollowing.push(followRun(progressBox, run.id, run.live.progress, run.models.map(m => m.alias), reload));
  else put(progressBox, ...idleControls(run, reload));
  return () => stopFollowing.forEach(f => f());
}

function idleControls(run: RunDetail, reload: () => void): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (run.live?.error) out.push(h('p', { class: 'error', role: 'alert' }, run.live.error));
  const unfinished = run.counts.pending > 0 || run.status === 'stopped';
  if (run.resumable && unfinished) {
    out.push(h('h2', { id: 'live-h' }, 'Resume'), h('button', {
      type: 'button', onclick: async () => { await api(`/runs/${encodeURIComponent(run.id)}/resume`, { method: 'POST', body: {} }); reload(); },
    }, 'Resume run'));
  }
  return out;
}

/** Make a share link for one expert: a blind scoring task of this run's outputs. */
function blindSection(run: RunDetail): HTMLElement {
  const rater = h('input', { type: 'text', id: 'rater', name: 'rater', required: true, placeholder: 'e.g. anna.k' });
  const out = h('div', { 'aria-live': 'polite' });
  return h('section', { 'aria-labelledby': 'blind-h' }, h('h2', { id: 'blind-h' }, 'Blind expert scoring'),
    h('form', { class: 'filters', onsubmit: async e => {
      e.preventDefault();
      try {
        const { path } = await api<{ path: string }>(`/runs/${encodeURIComponent(run.id)}/blind`, { method: 'POST', body: { rater: rater.value } });
        const url = `${location.origin}${path}`;
        put(out, h('p', {}, `Share link for ${rater.value} (it opens this one task only): `), h('p', {}, h('a', { href: url, id: 'share-link' }, url)));
      } catch (error) {
        put(out, h('p', { class: 'error' }, (error as Error).message));
      }
    } }, h('label', { for: 'rater' }, 'Expert'), rater, h('button', { type: 'submit' }, 'Create share link')),
    out);
}

async function trialsSection(run: RunDetail, query: URLSearchParams): Promise<HTMLElement> {
  const show = query.get('show') ?? 'all';
  const params = new URLSearchParams(query);
  const page = await api<TrialPage>(`/runs/${encodeURIComponent(run.id)}/trials?${params}`);
  const go = (changes: Record<string, string>) => {
    const next = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) if (v && v !== 'all') next.set(k, v); else next.delete(k);
    if (!('offset' in changes)) next.delete('offset');
    navigate(`${location.pathname}${next.size ? `?${next}` : ''}`, true);
  };
  const regex = h('input', { type: 'search', name: 'q', value: query.get('q') ?? '', placeholder: 'regular expression' });
  const from = page.total ? page.offset + 1 : 0;
  const to = page.offset + page.rows.length;
  return h('div', {},
    h('form', { class: 'filters', role: 'search', onsubmit: e => { e.preventDefault(); go({ q: regex.value }); } },
      h('label', {}, 'Show ', h('select', { name: 'show', onchange: e => go({ show: (e.target as HTMLSelectElement).value }) },
        ...SHOWS.map(([v, label]) => h('option', { value: v, selected: v === show }, label)))),
      h('label', {}, 'Model ', h('select', { name: 'model', onchange: e => go({ model: (e.target as HTMLSelectElement).value }) },
        h('option', { value: '' }, 'any'), ...run.models.map(m => h('option', { value: m.alias, selected: m.alias === query.get('model') }, m.alias)))),
      h('label', {}, 'Inputs or outputs match ', regex), h('button', { type: 'submit' }, 'Filter')),
    h('table', { class: 'trials' },
      h('caption', {}, `Trials ${from}–${to} of ${page.total}`),
      h('thead', {}, h('tr', {}, ...['Trial', 'Model', 'Item', 'Status', 'Score', 'Input', 'Output', 'Cost', 'Latency'].map(c => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, ...page.rows.map(r => h('tr', {},
        h('td', {}, link(`/runs/${encodeURIComponent(run.id)}/trials/${encodeURIComponent(r.id)}`, `#${r.index + 1}`)),
        h('td', {}, r.model), h('td', {}, h('code', {}, r.itemId), r.repeat ? ` ×${r.repeat + 1}` : ''),
        h('td', {}, h('span', { class: `status status-${r.status}` }, r.status)), h('td', {}, num(r.score, 2)),
        h('td', { class: 'text' }, r.input), h('td', { class: 'text' }, r.output),
        h('td', {}, usd(r.costUsd)), h('td', {}, `${Math.round(r.latencyMs)} ms`))))),
    h('nav', { class: 'pager', 'aria-label': 'Trial pages' },
      h('button', { type: 'button', disabled: page.offset === 0, onclick: () => go({ offset: String(Math.max(0, page.offset - page.limit)) }) }, 'Previous'),
      h('button', { type: 'button', disabled: to >= page.total, onclick: () => go({ offset: String(page.offset + page.limit) }) }, 'Next')));
}

