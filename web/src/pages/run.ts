import { api, ApiError } from '../api.js';
import { resultsFigure } from '../chart.js';
import { reportFigures } from '../charts/index.js';
import { h, link, num, put, usd, when } from '../dom.js';
import { navigate } from '../nav.js';
import { pollApi } from '../poll.js';
import type { Progress, RunCharts, RunDetail, RunState, TrialPage } from '../types.js';
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
      h('dt', {}, 'Status'), h('dd', {}, h('span', { class: `status status-${run.interrupted ? 'stopped' : run.status}`, id: 'run-status' }, run.interrupted ? 'stopped (interrupted)' : run.status),
        run.interrupted ? ' (no process is working on it)' : run.note ? ` (${noteText(run.note)})` : ''),
      h('dt', {}, 'Models'), h('dd', {}, run.models.map(m => `${m.alias} (${m.spec})`).join(', ')),
      h('dt', {}, 'Trials'), h('dd', {}, h('span', { id: 'run-counts' }, countsText(run.counts.done, run.counts.failed, run.counts.pending, run.counts.total)),
        // Runs of several step kinds (judges, learners) say how many of each.
        run.counts.byKind.length > 1 ? ` (${run.counts.byKind.map(k => `${k.total} ${k.kind}`).join(', ')})` : ''),
      h('dt', {}, 'Cost'), h('dd', { id: 'run-cost' }, usd(run.spentUsd), run.costIncomplete ? ' + unknown' : ''),
      h('dt', {}, 'Started'), h('dd', {}, h('time', { datetime: run.createdAt }, when(run.createdAt))),
      h('dt', {}, 'Export'), h('dd', {}, h('a', { href: `/api/runs/${encodeURIComponent(run.id)}/bundle.html`, download: '' }, 'Static bundle (one HTML file, no server needed)'))),
    progressBox,
    h('section', { 'aria-labelledby': 'results-h' }, h('h2', { id: 'results-h' }, 'Results'), asOfOpening(run), resultsFigure(run.results), figures),
    h('section', { 'aria-labelledby': 'trials-h' }, h('h2', { id: 'trials-h' }, 'Trials'), asOfOpening(run), await trialsSection(run, query)),
    run.judged ? blindSection(run) : null,
  );
  const reload = () => navigate(location.pathname + location.search, true);
  const facts = main.querySelector('#run-counts')!;
  // Until the engine says how many trials it plans, the stored counts stand.
  const onProgress = (p: Progress) => { if (p.total > 0) put(facts, countsText(p.done, p.failed, p.total - p.done - p.failed, p.total)); };
  if (run.live && !run.live.finished) {
    stopFollowing.push(followRun(progressBox, {
      runId: run.id, start: run.live.progress, models: run.models.map(m => m.alias), soFar: run.scoresSoFar,
      costIncomplete: run.costIncomplete, onProgress, onEnd: reload,
    }));
  }
  else {
    put(progressBox, ...idleControls(run, reload));
    // Another process runs it (the CLI, a worker): its stored state is asked for until it changes.
    if (run.status === 'running' && !run.interrupted) {
      stopFollowing.push(pollApi<RunDetail>(`/runs/${encodeURIComponent(run.id)}`, now => {
        // Its status changed (it ended, or its process went away): drawn again. Else its counts follow.
        if (now.status !== run.status || now.interrupted !== run.interrupted) {
          reload();
          return true;
        }
        put(facts, countsText(now.counts.done, now.counts.failed, now.counts.pending, now.counts.total));
        return false;
      }));
    } else {
      // Resumed or ended elsewhere (another tab, the CLI, a worker): drawn again, with what now stands.
      stopFollowing.push(pollApi<RunState>(`/runs/${encodeURIComponent(run.id)}/state`, now => {
        if (now.status === run.status && now.updatedAt === run.updatedAt && now.interrupted === run.interrupted && !now.live) return false;
        reload();
        return true;
      }));
    }
  }
  return () => stopFollowing.forEach(f => f());
}

const countsText = (done: number, failed: number, pending: number, total: number) => `${done} done, ${failed} failed, ${Math.max(0, pending)} pending of ${total}`;

function idleControls(run: RunDetail, reload: () => void): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (run.live?.error) out.push(h('p', { class: 'error', role: 'alert' }, run.live.error));
  const unfinished = run.counts.pending > 0 || run.status === 'stopped';
  // A run another process is working on is not offered for resuming: its trials are that process's.
  const elsewhere = run.status === 'running' && !run.interrupted;
  if (elsewhere) out.push(h('p', { class: 'muted', id: 'run-elsewhere' }, 'Another process (the command line or a worker) is running it; this page shows its progress as it is stored.'));
  // Failed trials (provider errors, never scored) are asked again only on request, as --retry-errors does.
  const failed = run.counts.failed > 0;
  if (run.resumable && (unfinished || failed) && !elsewhere) {
    // A refused resume (a file outside the offered folders, a run still stopping) says why beside the buttons.
    const said = h('div', { 'aria-live': 'polite' });
    const buttons: HTMLButtonElement[] = [];
    const resume = (label: string, retryErrors: boolean) => {
      const button = h('button', {
        type: 'button', onclick: async () => {
          buttons.forEach(b => { b.disabled = true; });
          put(said, h('p', { class: 'muted' }, 'Resuming…'));
          try {
            await api(`/runs/${encodeURIComponent(run.id)}/resume`, { method: 'POST', body: retryErrors ? { retryErrors: true } : {} });
            reload();
          } catch (error) {
            put(said, h('p', { class: 'error', role: 'alert', id: 'resume-error' }, (error as Error).message));
            buttons.forEach(b => { b.disabled = false; });
          }
        },
      }, label);
      buttons.push(button);
      return button;
    };
    out.push(h('h2', { id: 'live-h' }, 'Resume'),
      ...(unfinished ? [resume('Resume run', false)] : []),
      ...(failed ? [resume(`Retry the ${run.counts.failed} failed trial${run.counts.failed === 1 ? '' : 's'}${unfinished ? ' too' : ''}`, true)] : []),
      said);
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

/** The trial API's answer, or the filter problems it named (a bad `q` or `show` in the URL): the page is drawn either way. */
async function trialPage(runId: string, query: URLSearchParams): Promise<{ page: TrialPage; problems: Map<string, string> }> {
  try {
    return { page: await api<TrialPage>(`/runs/${encodeURIComponent(runId)}/trials?${new URLSearchParams(query)}`), problems: new Map() };
  } catch (error) {
    const issues = error instanceof ApiError && error.status === 400 ? (error.body as { issues?: Array<{ field?: string; message: string }> }).issues : undefined;
    if (!issues?.length) throw error;
    return { page: { total: 0, offset: 0, limit: 50, rows: [] }, problems: new Map(issues.map(i => [i.field ?? 'q', i.message])) };
  }
}

async function trialsSection(run: RunDetail, query: URLSearchParams): Promise<HTMLElement> {
  const show = query.get('show') ?? 'all';
  const { page, problems } = await trialPage(run.id, query);
  const go = (changes: Record<string, string>) => {
    const next = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) if (v && v !== 'all') next.set(k, v); else next.delete(k);
    if (!('offset' in changes)) next.delete('offset');
    navigate(`${location.pathname}${next.size ? `?${next}` : ''}`, true);
  };
  // A filter the server refused keeps its control, marked, with the server's words beside it.
  const problem = (name: string) => problems.get(name)
    ? h('span', { id: `trial-${name}-error`, class: 'error field-error' }, `${name === 'q' ? 'Not searched' : 'Not filtered'}: ${problems.get(name)}`) : null;
  const invalid = (name: string) => (problems.has(name) ? { 'aria-invalid': 'true', 'aria-describedby': `trial-${name}-error` } : {});
  const regex = h('input', { type: 'search', name: 'q', value: query.get('q') ?? '', placeholder: 'regular expression', ...invalid('q') });
  const from = page.total ? page.offset + 1 : 0;
  const to = page.offset + page.rows.length;
  const pastEnd = page.total > 0 && page.offset >= page.total;
  const lastPage = Math.floor((page.total - 1) / page.limit) * page.limit;
  const caption = problems.size ? 'No trials shown: fix the filter above'
    : pastEnd ? `No trials past ${page.total}` : `Trials ${from}–${to} of ${page.total}`;
  return h('div', {},
    h('form', { class: 'filters', role: 'search', onsubmit: e => { e.preventDefault(); go({ q: regex.value }); } },
      h('label', {}, 'Show ', h('select', { name: 'show', ...invalid('show'), onchange: e => go({ show: (e.target as HTMLSelectElement).value }) },
        ...SHOWS.map(([v, label]) => h('option', { value: v, selected: v === show }, label)))),
      problem('show'),
      h('label', {}, 'Model ', h('select', { name: 'model', onchange: e => go({ model: (e.target as HTMLSelectElement).value }) },
        h('option', { value: '' }, 'any'), ...run.models.map(m => h('option', { value: m.alias, selected: m.alias === query.get('model') }, m.alias)))),
      h('label', {}, 'Inputs or outputs match ', regex), problem('q'), h('button', { type: 'submit' }, 'Filter')),
    pastEnd ? h('p', { id: 'past-end' }, `This run has ${page.total} trials${query.has('show') || query.has('model') || query.has('q') ? ' that pass these filters' : ''}; none past ${page.total}. `,
      h('a', { href: pageLink(lastPage), 'data-link': true }, `Go to the last page (trials ${lastPage + 1}–${page.total})`)) : null,
    h('table', { class: 'trials' },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, ...['Trial', 'Model', 'Item', 'Status', 'Score', 'Input', 'Output', 'Cost', 'Latency'].map(c => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, ...page.rows.map(r => h('tr', {},
        h('td', {}, link(`/runs/${encodeURIComponent(run.id)}/trials/${encodeURIComponent(r.id)}`, `#${r.index + 1}`)),
        h('td', {}, r.model), h('td', {}, h('code', {}, r.itemId), r.repeat ? ` ×${r.repeat + 1}` : ''),
        h('td', {}, h('span', { class: `status status-${r.status}` }, r.status)), h('td', {}, num(r.score, 2)),
        h('td', { class: 'text' }, r.input), h('td', { class: 'text' }, r.output),
        h('td', {}, usd(r.costUsd)), h('td', {}, `${Math.round(r.latencyMs)} ms`))))),
    h('nav', { class: 'pager', 'aria-label': 'Trial pages' },
      h('button', { type: 'button', disabled: page.offset === 0, onclick: () => go({ offset: String(Math.max(0, Math.min(page.offset, page.total) - page.limit)) }) }, 'Previous'),
      h('button', { type: 'button', disabled: to >= page.total, onclick: () => go({ offset: String(page.offset + page.limit) }) }, 'Next')));
}

/** This page of the run at another offset, its filters kept. */
function pageLink(offset: number): string {
  const next = new URLSearchParams(location.search);
  if (offset > 0) next.set('offset', String(offset)); else next.delete('offset');
  return `${location.pathname}${next.size ? `?${next}` : ''}`;
}

/**
 * A run's stored note in the page's words. Runs stopped on request are stored with the note
 * "interrupted", which beside "stopped" read as the label of a run whose process died.
 */
function noteText(note: string): string {
  return note === 'interrupted' ? 'on request, by Stop or Ctrl-C; resume it to go on' : note;
}

/** While a run goes on, its results and trials are those stored when the page opened: said so, or a trial shown pending would read as stuck. */
function asOfOpening(run: RunDetail): HTMLElement | null {
  if (!run.live || run.live.finished) return null;
  return h('p', { class: 'muted as-of' }, 'As stored when this page opened: the live progress above goes on, and the page reloads with every result when the run ends.');
}
