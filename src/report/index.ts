import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store, TestDefinition } from '../core/index.js';
import { buildReportData, buildSummaryData, type ReportData } from './data.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { onlyModel } from './one-model.js';

export type ReportFormat = 'html' | 'md' | 'json';

/** The report text in one format. */
export function renderReport(data: ReportData, format: ReportFormat): string {
  return format === 'html' ? renderHtml(data) : format === 'md' ? renderMarkdown(data) : `${JSON.stringify(data, null, 2)}\n`;
}

/**
 * Render a stored run to a file; no model is called. With `model`, the report of that model alone
 * (its page). Returns the data that was rendered.
 */
export async function writeReport(store: Store, runId: string, o: { format: ReportFormat; out: string; tests: ReadonlyMap<string, TestDefinition>; model?: string }): Promise<ReportData> {
  const all = await buildReportData(store, runId, { tests: o.tests });
  const data = o.model === undefined ? all : onlyModel(all, o.model);
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, renderReport(data, o.format));
  return data;
}

export { buildReportData, buildSummaryData, renderHtml, renderMarkdown, onlyModel };
export type { ReportData };
