import { api } from '../api.js';
import { h, link, put, usd, when } from '../dom.js';
import { navigate } from '../nav.js';
import { pollApi } from '../poll.js';
import type { RunListEntry } from '../types.js';
import { confirmDelete } from './runs-delete.js';

/** A model as alias and spec, the spec only where it says more than the alias. */
export const modelLabel = (m: { alias: string; spec: string }) => (m.alias === m.spec ? m.alias : `${m.alias} (${m.spec})`);

/** Every stored run of every kind; filters and search live in the URL. */
export async function runsPage(main: HTMLElement, params: string[], query: URLSearchParams, notice?: string): Promise<() => void> {
  const runs = await api<RunListEntry[]>('/runs');
  const kind = query.get('kind') ?? '';
  const status = query.get('status') ?? '';
  const q = (query.get('q') ?? '').toLowerCase();
  // An interrupted run is stored as running but nothing works on it: it is listed (and filtered) as stopped, as `paideia runs` lists it.
  const statusOf = (r: RunListEntry) => (r.interrupted ? 'stopped' : r.status);
  const shown = runs.filter(r => (!kind || r.kind === kind) && (!status || statusOf(r) === status)
    && (!q || r.id.toLowerCase().includes(q) || r.modelSpecs.some(m => `${m.alias}\u0000${m.spec}`.toLowerCase().includes(q))));
  const setQuery = (name: string, value: string) => {
    const next = new URLSearchParams(location.search);
    if (value) next.set(name, value); else next.delete(name);
    navigate(`/runs${next.size ? `?${next}` : ''}`, true);
  };
  const select = (name: string, label: string, values: string[], current: string) => h('label', {},
    `${label} `, h('select', { name, onchange: e => setQuery(name, (e.target as HTMLSelectElement).value) },
      h('option', { value: '' }, 'any'), ...values.map(v => h('option', { value: v, selected: v === current }, v))));
  const chosen = new Set<string>();
  const compare = h('button', { type: 'button', disabled: true, onclick: () => navigate(`/compare?runs=${[...chosen].join(',')}`) }, 'Compare selected');
  const search = h('input', { type: 'search', name: 'q', value: query.get('q') ?? '', placeholder: 'run id or model' });
  // After a delete the list is drawn again from the server, with what happened said first.
  const remove = (r: RunListEntry) => confirmDelete(r, message => void runsPage(main, params, new URLSearchParams(location.search), message));
  const status1 = h('p', { role: 'status', class: notice ? 'ok' : 'muted', tabindex: -1 }, notice ?? '');
  put(main,
    h('h1', {}, 'Runs'),
    status1,
    h('form', { class: 'filters', role: 'search', onsubmit: e => { e.preventDefault(); setQuery('q', search.value.trim()); } },
      select('kind', 'Kind', [...new Set(runs.map(r => r.kind))], kind),
      select('status', 'Status', ['running', 'completed', 'stopped', 'failed'], status),
      h('label', {}, 'Search ', search), h('button', { type: 'submit' }, 'Search'), compare),
    shown.length === 0
      ? h('p', {}, runs.length ? 'No run matches these filters.' : 'No runs in this store yet. ', runs.length ? null : link('/launch', 'Launch one'))
      : h('table', { class: 'runs' },
        h('caption', {}, `${shown.length} of ${runs.length} runs, newest first`),
        h('thead', {}, h('tr', {}, ...['Select', 'Run', 'Kind', 'Status', 'Models', 'Progress', 'Cost', 'Started', 'Updated', 'Delete'].map(c => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, ...shown.map(r => h('tr', {},
          h('td', {}, h('input', {
            type: 'checkbox', 'aria-label': `select run ${r.id} for comparison`,
            onchange: e => { if ((e.target as HTMLInputElement).checked) chosen.add(r.id); else chosen.delete(r.id); compare.disabled = chosen.size < 2; },
          })),
          h('td', {}, link(`/runs/${encodeURIComponent(r.id)}`, h('code', {}, r.id.slice(0, 12)))),
          h('td', {}, r.kind),
          h('td', {}, h('span', { class: `status status-${statusOf(r)}` }, r.interrupted ? 'stopped (interrupted)' : r.status),
            r.interrupted && r.resume ? h('p', { class: 'muted' }, 'no process is working on it; resume it with: ', h('code', {}, r.resume)) : null),
          h('td', {}, r.modelSpecs.map(modelLabel).join(', ')),
          h('td', {}, r.live ? `${r.live.done + r.live.failed} / ${r.live.total}` : `${r.trials} trials`, r.failures ? h('span', { class: 'bad' }, ` · ${r.failures} failed`) : null),
          h('td', {}, usd(r.costUsd), r.costIncomplete ? ' + unknown' : ''),
          h('td', {}, h('time', { datetime: r.createdAt }, when(r.createdAt))),
          h('td', {}, h('time', { datetime: r.updatedAt }, when(r.updatedAt))),
          h('td', {}, h('button', { type: 'button', class: 'danger', 'aria-label': `delete run ${r.id}`, onclick: () => remove(r) }, 'Delete')))))),
  );
  if (notice) status1.focus();
  // The list draws itself again (after a delete, or as runs go): one watch at a time, whichever drawing made it.
  stopWatching();
  stopWatching = watchRunning(runs, () => chosen.size === 0 && document.activeElement !== search, () => void runsPage(main, params, new URLSearchParams(location.search)));
  return () => stopWatching();
}

let stopWatching: () => void = () => undefined;

/**
 * While a listed run is running (here or in another process), ask for the list again and draw it
 * again once a run's status or progress changed, unless the reader is choosing runs or typing a
 * search (then it asks again later). Returns the stop.
 */
function watchRunning(runs: RunListEntry[], idle: () => boolean, redraw: () => void): () => void {
  const seen = (list: RunListEntry[]) => JSON.stringify(list.map(r => [r.id, r.status, r.interrupted, r.trials, r.failures, r.live]));
  if (!runs.some(r => r.status === 'running' && !r.interrupted)) return () => undefined;
  const before = seen(runs);
  return pollApi<RunListEntry[]>('/runs', now => {
    if (seen(now) === before || !idle()) return false;
    redraw();
    return true;
  });
}
