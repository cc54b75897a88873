import type { Store } from '../../core/index.js';
import { resolve } from 'node:path';
import { commandHint } from '../../core/command-hint.js';
import { learningReport } from '../../learning/report/index.js';
import { judgeGainAlignment } from './alignment.js';
import { renderLearningHtml } from './html.js';
import { renderLearningMarkdown } from './markdown.js';

export { renderLearningMarkdown, figureText } from './markdown.js';
export { renderLearningHtml } from './html.js';
export { judgeGainAlignment, GAIN_DEFINITION, type LearningJudgeValidity, type JudgeGainRow } from './alignment.js';
export { learningTable, learningTableFromStore, learningTemplateCells, type LearningTable } from './validity.js';

/**
 * A learning run's report in a format, recomputed from the store (no model is called), with the
 * judges' alignment with learner gain (`judgeValidity`); `experts` adds tau with an expert file.
 */
export async function learningReportText(store: Store, runId: string, format: 'json' | 'md' | 'html', o: { experts?: string } = {}): Promise<string> {
  const { report, data } = await learningReport(store, runId);
  const validity = judgeGainAlignment(data, o);
  if (format === 'json') return `${JSON.stringify({ ...report, judgeValidity: validity }, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
  // The full analysis as a command that runs pasted: it names the store (so it is in the text
  // formats only; the JSON is the same wherever the run is stored).
  const analyzeCommand = commandHint(['validity', 'analyze', '--run', runId, ...(o.experts !== undefined ? ['--experts', resolve(o.experts)] : [])], store.url);
  if (format === 'md') return renderLearningMarkdown(report, validity, analyzeCommand);
  return renderLearningHtml(report, data, store, validity, analyzeCommand);
}
