import { api } from '../api.js';
import { h, num, put, table, usd } from '../dom.js';
import type { Progress } from '../types.js';

interface TrialEvent {
  progress: Progress; status: 'done' | 'failed'; spentUsd: number;
  trial: { id: string; itemId: string; model: string; judge: boolean };
  scores: Array<{ scorer: string; value: number | null }>;
}

/**
 * Follow a running run through its server-sent events (the engine's RunEvent stream): progress,
 * cost, running mean per model, warnings and errors as they happen, and a stop button that
 * drains the run. Returns the function that closes the stream.
 */
export interface Follow {
  runId: string;
  start: Progress;
  models: string[];
  /** Scores stored before the page connected: the running means start from them. */
  soFar: Array<{ model: string; sum: number; n: number }>;
  /** Some model has no price: the spend is said as "+ unknown", as the runs list says it. */
  costIncomplete: boolean;
  /** Called with every progress, so the page's facts follow the live counts. */
  onProgress: (p: Progress) => void;
  onEnd: () => void;
}

export function followRun(box: HTMLElement, { runId, start, models, soFar, costIncomplete, onProgress, onEnd }: Follow): () => void {
  const bar = h('progress', { max: Math.max(1, start.total), value: start.done + start.failed, 'aria-labelledby': 'live-h' });
  const counts = h('p', { id: 'live-counts', 'aria-live': 'polite' });
  const log = h('ol', { class: 'log', 'aria-label': 'Latest events' });
  const running = new Map<string, { sum: number; n: number }>(models.map(m => [m, { sum: 0, n: 0 }]));
  for (const m of soFar) running.set(m.model, { sum: m.sum, n: m.n });
  const scores = h('div', {});
  const stop = h('button', { type: 'button', class: 'danger' }, 'Stop (drain)');
  // Once draining, the calls in flight may be slow (a server that hangs waits out its timeout): they can be let go.
  const stopNow = h('button', { type: 'button', class: 'danger', hidden: true, id: 'stop-now' }, 'Stop now (abandon the calls in flight)');
  let stopping = false;
  // The last progress drawn: a stop asked here draws it again, marked stopping.
  let last = start;
  const draw = (p: Progress) => {
    last = p;
    bar.max = Math.max(1, p.total);
    bar.value = p.done + p.failed;
    stopping ||= p.stopping;
    put(counts, `${p.done + p.failed} of ${p.total} trials · ${p.failed} failed · spent ${usd(p.spentUsd)}${costIncomplete ? ' + unknown' : ''}${stopping ? ' · stopping: calls in flight finish' : ''}`);
    if (stopping) { stop.disabled = true; stopNow.hidden = false; }
    put(scores, table('Running mean score per model', ['Model', 'Mean so far', 'Scored trials'],
      [...running].map(([m, v]) => [m, v.n ? num(v.sum / v.n) : '–', v.n])));
    onProgress(p);
  };
  const note = (text: string, cls = '') => {
    log.prepend(h('li', { class: cls }, text));
    while (log.children.length > 30) log.lastElementChild!.remove();
  };
  put(box, h('h2', { id: 'live-h' }, 'Live progress'), bar, counts, stop, stopNow, scores, h('h3', {}, 'Events'), log);
  draw(start);
  const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
  stop.addEventListener('click', async () => {
    stop.disabled = true;
    await api(`/runs/${encodeURIComponent(runId)}/stop`, { method: 'POST', body: {} });
    stopping = true;
    draw(last);
    note('stop asked: no new call starts, none is tried again; the calls in flight finish and are stored');
  });
  stopNow.addEventListener('click', async () => {
    stopNow.disabled = true;
    await api(`/runs/${encodeURIComponent(runId)}/abort`, { method: 'POST', body: {} });
    note('stopped now: the calls in flight are abandoned (their trials stay pending; a resume asks them again)');
  });
  source.addEventListener('progress', e => draw(JSON.parse((e as MessageEvent<string>).data) as Progress));
  source.addEventListener('start', e => draw((JSON.parse((e as MessageEvent<string>).data) as { progress: Progress }).progress));
  source.addEventListener('trial', e => {
    const t = JSON.parse((e as MessageEvent<string>).data) as TrialEvent;
    for (const s of t.scores) {
      const m = running.get(t.trial.model);
      if (m && s.value !== null && !t.trial.judge) { m.sum += s.value; m.n += 1; }
    }
    draw(t.progress);
    note(`${t.trial.model} · ${t.trial.itemId}: ${t.status}${t.scores.length ? ` (${t.scores.map(s => num(s.value, 2)).join(', ')})` : ''}`, t.status === 'failed' ? 'bad' : '');
  });
  source.addEventListener('retry', e => {
    const r = JSON.parse((e as MessageEvent<string>).data) as { trial: { model: string }; attempt: number; error: string };
    note(`${r.trial.model}: retry ${r.attempt} after ${r.error}`, 'bad');
  });
  source.addEventListener('warning', e => note(`warning: ${(JSON.parse((e as MessageEvent<string>).data) as { message: string }).message}`, 'bad'));
  source.addEventListener('stop', e => {
    const reason = (JSON.parse((e as MessageEvent<string>).data) as { reason: string }).reason;
    note(reason === 'interrupt' ? 'stopping on request: nothing new starts' : `stopping: ${reason}`);
  });
  // The server went away (the browser would retry for ever): say so, and offer nothing that needs it.
  const lost = h('p', { class: 'error', role: 'alert', hidden: true }, 'Lost the connection to the server; reload when it is back.');
  box.insertBefore(lost, bar);
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.OPEN) return;
    source.close();
    lost.hidden = false;
    stop.disabled = true;
    stopNow.disabled = true;
    stop.title = 'the server cannot be reached';
  });
  source.addEventListener('end', () => {
    source.close();
    onEnd();
  });
  return () => source.close();
}
