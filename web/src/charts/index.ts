import { h } from '../dom.js';
import type { RunCharts } from '../types.js';
import { differencesFigure } from './forest.js';
import { learningFigures } from './learning.js';
import { radarFigure } from './radar.js';
import { alignmentSection } from './attach.js';

/** The figures a run's report has (each kind fills its own), each a chart with its table; none for a kind with none. */
export function reportFigures(runId: string, c: RunCharts, idPrefix: string): HTMLElement[] {
  const section = (key: string, title: string, body: HTMLElement) =>
    h('section', { 'aria-labelledby': `${idPrefix}-${key}` }, h('h3', { id: `${idPrefix}-${key}` }, title), body);
  const out: HTMLElement[] = [];
  if (c.radar) out.push(section('radar', 'Rubric dimensions', radarFigure(c.radar)));
  if (c.radar || c.comparisons.length) out.push(section('differences', 'Paired differences between models', differencesFigure(c.comparisons)));
  if (c.tau) out.push(section('tau', 'Alignment: tau with experts against tau with the outcome', alignmentSection(runId, c.tau)));
  if (c.learning) out.push(section('learning', 'Learning: gains and judges against gain', learningFigures(c.learning)));
  return out;
}
