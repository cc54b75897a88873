// Scenario reports rendered for people: the data comes from scenarios/report.ts (stored scores only).
export { renderScenarioReport } from './markdown.js';
export { renderScenarioHtml } from './html.js';
export { renderOverviewHtml, renderOverviewMarkdown, scenarioOverview, type OverviewRow, type ScenarioOverview } from './overview.js';
