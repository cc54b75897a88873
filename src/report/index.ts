import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store, TestDefinition } from '../core/index.js';
import { buildReportData, type ReportData } from './data.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

export type ReportFormat = 'html' | 'md' | 'json';

/** Render a stored run to a file; no model is called. Returns the data that was rendered. */
export async function writeReport(store: Store, runId: string, o: { format: ReportFormat; out: string; tests: ReadonlyMap<string, TestDefinition> }): Promise<ReportData> {
  const data = await buildReportData(store, runId, { tests: o.tests });
  const text = o.format === 'html' ? renderHtml(data) : o.format === 'md' ? renderMarkdown(data) : `${JSON.stringify(data, null, 2)}\n`;
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, text);
  return data;
}

export { buildReportData, renderHtml, renderMarkdown };
export type { ReportData };
