import type { CallRecord, Store } from '../core/index.js';
import { escapeHtml } from '../core/escape.js';
import { eachCall } from '../engine/history.js';
import { bundleFigures, FIGURE_STYLE } from './bundle-figures.js';
import { runCharts } from './results-charts.js';
import { unpricedModels } from '../report/runs-summary.js';
import { runResults } from './results.js';
import type { Redact } from './trial-detail.js';

/** Trials shown with every call in a bundle; the rest are listed in its table only (the file stays openable). */
export const BUNDLE_TRIAL_DETAILS = 2000;

// The bundle holds no script at all, and its own policy forbids any: opened from disk it shows, never runs.
const POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const STYLE = `body{font:15px/1.45 system-ui,sans-serif;color:#111;margin:24px;max-width:1200px}table{border-collapse:collapse;width:100%;margin:8px 0 16px}
th,td{border-bottom:1px solid #c9ced6;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f3f5f8}pre{white-space:pre-wrap;overflow-wrap:anywhere;
font:13px/1.4 monospace;margin:4px 0}details{border:1px solid #c9ced6;border-radius:6px;padding:6px 10px;margin:8px 0}.bad{color:#a4161a}
${FIGURE_STYLE}`;

const e = escapeHtml;
const fmt = (v: number | null) => (v === null ? '–' : v.toFixed(3));

/**
 * A run as one static HTML file (like Inspect's `view bundle`): its results with intervals and n,
 * the figures of its kind's report (as the run's page draws them) as inline SVG with their tables,
 * every trial with its score, and the first trials' calls in full (messages, answer, raw request
 * and response, keys redacted). Made from the store alone; opens from disk with no server.
 */
export async function renderRunBundle(store: Store, runId: string, redact: Redact): Promise<string | undefined> {
  const run = await store.getRun(runId);
  if (!run) return undefined;
  const [trials, statuses, scores, results, charts] = await Promise.all([
    store.listTrials(runId), store.listTrialStatuses(runId), store.listScores(runId), runResults(store, runId), runCharts(store, run),
  ]);
  const top = trials.filter(t => t.target === undefined).sort((a, b) => a.index - b.index);
  const detailed = new Set(top.slice(0, BUNDLE_TRIAL_DETAILS).map(t => t.id));
  const judgeOf = new Map(trials.filter(t => t.target !== undefined).map(t => [t.id, t.target!]));
  const calls = new Map<string, CallRecord[]>();
  for await (const c of eachCall(store, runId)) {
    const owner = judgeOf.get(c.trialId) ?? c.trialId;
    if (detailed.has(owner)) (calls.get(owner) ?? calls.set(owner, []).get(owner)!).push(c);
  }
  const scoreOf = new Map<string, string>();
  for (const s of scores) scoreOf.set(s.trialId, `${scoreOf.has(s.trialId) ? `${scoreOf.get(s.trialId)}, ` : ''}${s.scorer.name} ${fmt(s.value)}`);
  const body = [
    `<h1>Run ${e(run.id)}</h1>`,
    `<p>${e(run.kind)} run, ${e(run.status)}; models ${e(run.config.models.map(m => `${m.alias} (${m.spec})`).join(', '))}; spent $${(await store.spentUsd(runId)).toFixed(4)}${unpricedModels(run).length ? ' + unknown' : ''}; started ${e(run.createdAt)}.</p>`,
    '<h2>Results</h2><table><caption>Mean over items with 95% bootstrap interval and n</caption><thead><tr><th>Measure</th><th>Model</th><th>Mean</th><th>95% interval</th><th>n</th><th>Unscored</th></tr></thead><tbody>',
    ...results.map(r => `<tr><td>${e(r.measure)}</td><td>${e(r.model)}</td><td>${fmt(r.mean)}</td><td>${r.low === null ? '–' : `${fmt(r.low)} – ${fmt(r.high)}`}</td><td>${r.n}</td><td>${r.unscored}</td></tr>`),
    '</tbody></table>',
    bundleFigures(charts),
    `<h2>Trials (${top.length})</h2><table><thead><tr><th>#</th><th>Model</th><th>Item</th><th>Status</th><th>Scores</th></tr></thead><tbody>`,
    ...top.map(t => `<tr><td>${detailed.has(t.id) ? `<a href="#t-${e(t.id)}">${t.index + 1}</a>` : t.index + 1}</td><td>${e(t.modelAlias)}</td><td>${e(t.itemId)}</td><td>${e(statuses.get(t.id) ?? 'pending')}</td><td>${e(scoreOf.get(t.id) ?? '')}</td></tr>`),
    '</tbody></table>',
    top.length > detailed.size ? `<p>The first ${detailed.size} trials are shown with their calls below; the web app (paideia serve) shows every one.</p>` : '',
    ...top.filter(t => detailed.has(t.id)).map(t => `<section id="t-${e(t.id)}"><h3>Trial ${t.index + 1}: ${e(t.modelAlias)} on ${e(t.itemId)}</h3>${(calls.get(t.id) ?? []).map(callHtml).join('')}</section>`),
  ];
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${POLICY}"><title>Paideia run ${e(run.id)}</title><style>${STYLE}</style></head><body>${body.join('\n')}</body></html>\n`;
  return redact(html);
}

function callHtml(c: CallRecord): string {
  const messages = c.request.messages.map(m => `<p><strong>${e(m.role)}</strong></p><pre>${e(m.content)}</pre>`).join('');
  const answer = c.status === 'ok' ? `<p><strong>answer</strong></p><pre>${e(c.result?.text ?? '')}</pre>` : `<p class="bad">${e(c.error?.message ?? 'error')}</p>`;
  return `<details><summary>Step ${c.step + 1}${c.model ? ` · ${e(c.model)}` : ''} · ${e(c.status)} · ${Math.round(c.latencyMs)} ms · $${c.costUsd.toFixed(6)}</summary>${messages}${answer}`
    + `<details><summary>Raw request</summary><pre>${e(JSON.stringify(c.request, null, 2))}</pre></details>`
    + `<details><summary>Raw response</summary><pre>${e(JSON.stringify(c.result?.raw ?? c.error ?? null, null, 2))}</pre></details></details>`;
}
