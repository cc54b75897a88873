import { escapeHtml } from '../../core/escape.js';
import type { Estimate } from '../../scenarios/analysis/estimate.js';
import type { ScenarioModelReport, ScenarioReport } from '../../scenarios/report.js';
import { pageHead } from '../page.js';
import { cellText } from '../markdown-cell.js';
import { fmtEstimate } from './markdown.js';

/** One row of the cross-scenario overview: a model's weighted score and dimension means in one run. */
export interface OverviewRow extends Pick<ScenarioModelReport, 'model' | 'isBaseline' | 'score' | 'dimensions'> {
  scenario: string;
  runId: string;
}

/** Several runs (typically one per scenario) side by side: per scenario, per model, per dimension. */
export interface ScenarioOverview {
  dimensions: string[];
  rows: OverviewRow[];
  reports: ScenarioReport[];
}

export function scenarioOverview(reports: ScenarioReport[]): ScenarioOverview {
  const dimensions = [...new Set(reports.flatMap(r => r.models.flatMap(m => Object.keys(m.dimensions))))].sort();
  const rows = reports.flatMap(r => r.models.map(m => ({
    scenario: r.scenario, runId: r.runId, model: m.model, isBaseline: m.isBaseline, score: m.score, dimensions: m.dimensions,
  })));
  return { dimensions, rows, reports };
}

const NA: Estimate = { mean: null, n: 0, low: null, high: null };

/** The overview as one Markdown table, followed by each run's own report. */
export function renderOverviewMarkdown(o: ScenarioOverview, each: (r: ScenarioReport) => string): string {
  const header = ['scenario', 'model', 'weighted score', ...o.dimensions];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rows = o.rows.map(r => [
    cellText(r.scenario), cellText(r.model + (r.isBaseline ? ' (baseline)' : '')), fmtEstimate(r.score),
    ...o.dimensions.map(d => fmtEstimate(r.dimensions[d] ?? NA)),
  ]);
  return [
    '# Scenario overview', '',
    'Per scenario and model: mean on [0, 1] with a 95% percentile bootstrap interval over tasks and n (tasks).', '',
    line(header), `|${header.map(() => '---|').join('')}`, ...rows.map(line), '',
    ...o.reports.map(each),
  ].join('\n');
}

/** The overview as one self-contained HTML page (no script), then each run's report body. */
export function renderOverviewHtml(o: ScenarioOverview, each: (r: ScenarioReport) => string): string {
  const cell = (e: Estimate) => `<td>${escapeHtml(fmtEstimate(e))}</td>`;
  const head = ['scenario', 'model', 'weighted score', ...o.dimensions].map(h => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = o.rows.map(r => `<tr><td>${escapeHtml(r.scenario)}</td><td>${escapeHtml(r.model)}${r.isBaseline ? ' (baseline)' : ''}</td>${cell(r.score)}${o.dimensions.map(d => cell(r.dimensions[d] ?? NA)).join('')}</tr>`).join('');
  // Each run's report is a whole page; its body goes below the overview.
  const bodies = o.reports.map(r => /<body[^>]*>([\s\S]*)<\/body>/i.exec(each(r))?.[1] ?? '').map(b => `<section>${b}</section>`).join('<hr>');
  return `<!doctype html>
${pageHead('Scenario overview')}
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem}table{border-collapse:collapse}th,td{border:1px solid #d5d9e0;padding:.3rem .5rem;text-align:left}th{background:#f3f5f8}</style>
</head><body>
<h1>Scenario overview</h1>
<p>Per scenario and model: mean on [0, 1] with a 95% percentile bootstrap interval over tasks and n (tasks).</p>
<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>
${bodies}
</body></html>
`;
}
