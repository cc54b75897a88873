import { api } from '../api.js';
import { h, link, num, put, table, usd } from '../dom.js';
import type { CallView, Judgment, TrialDetail } from '../types.js';
import { deckSection } from './deck.js';

/** One trial down to the wire: every turn, each judge's fields, reasons and raw answer, each call's request and response. */
export async function trialPage(main: HTMLElement, [runId, trialId]: string[]): Promise<void> {
  const d = await api<TrialDetail>(`/runs/${encodeURIComponent(runId!)}/trials/${encodeURIComponent(trialId!)}`);
  const t = d.trial;
  const cost = [...d.calls, ...d.judges.flatMap(j => j.calls)].reduce((a, c) => a + c.costUsd, 0);
  put(main,
    h('p', {}, link(`/runs/${encodeURIComponent(runId!)}`, '← back to the run')),
    h('h1', {}, `Trial of ${t.modelAlias} on `, h('code', {}, t.itemId)),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Model'), h('dd', {}, `${t.modelAlias} (${t.modelSpec})`),
      h('dt', {}, 'Test'), h('dd', {}, t.test),
      h('dt', {}, 'Repeat'), h('dd', {}, t.repeat + 1),
      h('dt', {}, 'Variant'), h('dd', {}, t.variant ?? 'default'),
      h('dt', {}, 'Cost'), h('dd', { id: 'trial-cost' }, usd(cost), d.costIncomplete ? ' + unknown' : '', ' (judges included)')),
    d.deck ? deckSection(runId!, d.deck, t.id) : null,
    d.scores.length ? table('Scores', ['Scorer', 'Version', 'Value', 'Reason'], d.scores.map(s => [s.scorer.name, s.scorer.version, num(s.value), s.reason ?? ''])) : null,
    h('section', { 'aria-labelledby': 'calls-h' }, h('h2', { id: 'calls-h' }, `Calls (${d.calls.length})`), ...d.calls.map((c, i) => callView(c, `Call ${i + 1}`))),
    ...d.judges.map((j, k) => h('section', { 'aria-labelledby': `judge-${k}` },
      h('h2', { id: `judge-${k}` }, `Judge ${j.trial.modelAlias}`),
      ...j.judgments.map(judgmentView),
      ...j.calls.map((c, i) => callView(c, `Judge call ${i + 1}`)))),
  );
}

function callView(c: CallView, title: string): HTMLElement {
  return h('article', { class: 'call' },
    h('h3', {}, `${title}: step ${c.step + 1}${c.model ? ` · ${c.model}` : ''} · `, h('span', { class: `status status-${c.status === 'ok' ? 'done' : 'failed'}` }, c.status)),
    h('p', { class: 'muted' }, `${Math.round(c.latencyMs)} ms · ${usd(c.costUsd)} · ${c.usage ? `${c.usage.inputTokens} in / ${c.usage.outputTokens} out tokens` : 'no usage'} · ${c.attempts} attempt(s)${c.cached ? ' · cached' : ''}`),
    h('ol', { class: 'turns' }, ...c.request.messages.map(m => h('li', { class: `turn turn-${m.role}` }, h('strong', {}, m.role), h('pre', {}, m.content)))),
    c.status === 'ok'
      ? h('div', { class: 'turn turn-assistant answer' }, h('strong', {}, 'answer'), h('pre', {}, c.text ?? ''), ...c.toolCalls.map(tc => h('pre', {}, `${tc.name}(${tc.arguments})`)))
      : h('p', { class: 'error' }, `${c.error?.name ?? 'error'}: ${c.error?.message ?? ''}`),
    // The engine's request record (what the cache key is made of), not the HTTP body: a provider
    // sends its messages and parameters, never the hints only baselines read.
    h('details', {}, h('summary', {}, 'Request as stored'), h('p', { class: 'note' }, 'Messages and parameters the provider sent; hints (the accepted answer) go to baselines only, never over HTTP.'),
      h('pre', { class: 'raw' }, JSON.stringify(c.request, null, 2))),
    h('details', {}, h('summary', {}, 'Raw response'), h('pre', { class: 'raw' }, JSON.stringify(c.response ?? c.error, null, 2))));
}

function judgmentView(j: Judgment): HTMLElement {
  return h('article', { class: 'judgment' },
    h('h3', {}, `${j.rater.alias} · ${j.promptVariant} · repeat ${j.repeat + 1}: ${j.value === null ? 'unscored' : num(j.value)}`),
    j.reason ? h('p', {}, h('strong', {}, 'Reason: '), j.reason) : null,
    table('Fields', ['Field', 'Value'], Object.entries(j.fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
    j.raw ? h('details', {}, h('summary', {}, 'Raw answer'), h('pre', { class: 'raw' }, j.raw)) : null);
}
