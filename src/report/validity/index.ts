import type { ValidityReport } from '../../validity/index.js';
import { validityHtml } from './html.js';
import { validityMarkdown } from './markdown.js';
import type { ValidityFormat } from './format.js';

export type { ValidityFormat };

/** The validity report in one of its three forms; all carry the same numbers. */
export function renderValidity(r: ValidityReport, format: ValidityFormat): string {
  if (format === 'json') return `${JSON.stringify(r, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
  return format === 'md' ? validityMarkdown(r) : validityHtml(r);
}

export { validityHtml, validityMarkdown };
export { withJudgeValidity, type JudgeValidity } from './section.js';
