// Scenario reports rendered for people: the data comes from scenarios/report.ts (stored scores only).
export { renderScenarioReport } from './markdown.js';
export { renderScenarioHtml } from './html.js';
export { renderOverviewHtml, renderOverviewMarkdown, scenarioOverview, type OverviewRow, type ScenarioOverview } from './overview.js';

import type { ScenarioReport } from '../../scenarios/report.js';
import { renderScenarioHtml } from './html.js';
import { renderScenarioReport } from './markdown.js';

/** A scenario report as text in a report format: JSON data, Markdown or self-contained HTML. */
export function renderScenarioText(report: ScenarioReport, format: 'json' | 'md' | 'html'): string {
  return format === 'json' ? JSON.stringify(report, null, 2) + '\n' : format === 'html' ? renderScenarioHtml(report) : renderScenarioReport(report);
}
