import * as Plot from '@observablehq/plot';
import { h, num, table } from './dom.js';
import type { ResultRow } from './types.js';

/**
 * Each model's mean per measure with its 95% interval (a forest plot), and the same numbers as a
 * table: the chart is for the eye, the table for screen readers and for copying.
 */
export function resultsFigure(rows: ResultRow[]): HTMLElement {
  if (rows.length === 0) return h('p', {}, 'No scores or judgments stored yet.');
  const withMean = rows.filter(r => r.mean !== null);
  const measures = [...new Set(rows.map(r => r.measure))];
  const svg = Plot.plot({
    width: 760, marginLeft: 140, marginRight: 110, height: 40 + withMean.length * 26 + measures.length * 10,
    style: { fontSize: '12px', background: 'transparent' },
    ariaLabel: 'Mean score per model and measure with 95% intervals; the same numbers are in the table below',
    x: { label: 'mean (95% interval)', grid: true, domain: [Math.min(0, ...withMean.map(r => r.low ?? r.mean!)), Math.max(1, ...withMean.map(r => r.high ?? r.mean!))] },
    y: { label: null },
    fy: { label: null },
    marks: [
      Plot.ruleY(withMean.filter(r => r.low !== null), { fy: 'measure', y: 'model', x1: 'low', x2: 'high', stroke: '#1f5fa8', strokeWidth: 2 }),
      Plot.dot(withMean, { fy: 'measure', y: 'model', x: 'mean', fill: '#1f5fa8', r: 4 }),
    ],
  });
  return chartFigure(svg, 'Dots are means over items, bars their 95% bootstrap intervals. Overlapping bars: the models are not shown to differ.',
    table('Results: mean over items, 95% interval and n', ['Measure', 'Model', 'Mean', '95% interval', 'n', 'Unscored'],
      rows.map(r => [r.measure, r.model, num(r.mean), interval(r), r.n, r.unscored]), { class: 'results' }));
}

/** A 95% interval as the tables write it. */
export const interval = (x: { low: number | null; high: number | null }) => (x.low === null ? '–' : `${num(x.low)} – ${num(x.high)}`);

/**
 * A chart with its caption and the table of its numbers. The drawing is one image to assistive
 * technology (its marks' labels removed): the table that follows is what it reads.
 */
export function chartFigure(svg: Element, caption: string, numbers: HTMLElement, attrs: Record<string, string> = {}): HTMLElement {
  svg.setAttribute('role', 'img');
  for (const g of svg.querySelectorAll('[aria-label]')) g.removeAttribute('aria-label');
  return h('figure', { class: 'chart', tabindex: 0, ...attrs }, svg as unknown as HTMLElement, h('figcaption', {}, caption), numbers);
}
