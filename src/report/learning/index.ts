import type { Store } from '../../core/index.js';
import { learningReport } from '../../learning/report/index.js';
import { renderLearningHtml } from './html.js';
import { renderLearningMarkdown } from './markdown.js';

export { renderLearningMarkdown, figureText } from './markdown.js';
export { renderLearningHtml } from './html.js';

/** A learning run's report in a format, recomputed from the store (no model is called). */
export async function learningReportText(store: Store, runId: string, format: 'json' | 'md' | 'html'): Promise<string> {
  const { report, data } = await learningReport(store, runId);
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'md') return renderLearningMarkdown(report);
  return renderLearningHtml(report, data, store);
}
