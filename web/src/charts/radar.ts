import { interval, chartFigure } from '../chart.js';
import { h, num, table } from '../dom.js';
import type { RunCharts } from '../types.js';
import { PALETTE, svg } from './svg.js';

type Radar = NonNullable<RunCharts['radar']>;

/**
 * Each model's mean per rubric dimension on [0, 1], one spoke per dimension and one polygon per
 * model (the scenario report's radar), with the dimensions' means, intervals and n as a table.
 */
export function radarFigure(radar: Radar): HTMLElement {
  const { axes, models } = radar;
  const size = 400, c = size / 2, r = 140;
  const angle = (i: number) => -Math.PI / 2 + (2 * Math.PI * i) / axes.length;
  const at = (i: number, v: number) => [c + r * v * Math.cos(angle(i)), c + r * v * Math.sin(angle(i))] as const;
  const points = (vs: number[]) => vs.map((v, i) => at(i, v).map(x => x.toFixed(1)).join(',')).join(' ');
  const root = svg('svg', { width: size + 160, height: size, viewBox: `-80 0 ${size + 160} ${size}`, 'aria-label': 'Radar chart: mean per rubric dimension and model; the numbers are in the table below' });
  for (const ring of [0.25, 0.5, 0.75, 1]) root.append(svg('polygon', { points: points(axes.map(() => ring)), fill: 'none', stroke: '#c9ced6' }));
  axes.forEach((axis, i) => {
    const [x, y] = at(i, 1);
    const [lx, ly] = at(i, 1.1);
    root.append(svg('line', { x1: c, y1: c, x2: x, y2: y, stroke: '#c9ced6' }));
    root.append(svg('text', { x: lx, y: ly + 4, 'font-size': 12, fill: '#111', 'text-anchor': Math.abs(lx - c) < 1 ? 'middle' : lx > c ? 'start' : 'end' }, axis));
  });
  models.forEach((m, k) => {
    const colour = PALETTE[k % PALETTE.length]!;
    // A dimension with no score is drawn at the centre; the table says n/a.
    root.append(svg('polygon', { points: points(axes.map(a => m.dimensions[a]?.mean ?? 0)), fill: colour, 'fill-opacity': 0.12, stroke: colour, 'stroke-width': 2 }));
    root.append(svg('rect', { x: -72, y: 12 + k * 18, width: 12, height: 12, fill: colour }));
    root.append(svg('text', { x: -54, y: 22 + k * 18, 'font-size': 12, fill: '#111' }, m.model + (m.isBaseline ? ' (baseline)' : '')));
  });
  const rows = models.flatMap(m => axes.map(a => {
    const d = m.dimensions[a];
    return [m.model + (m.isBaseline ? ' (baseline)' : ''), a, d ? num(d.mean) : 'n/a', d ? interval(d) : '–', d?.n ?? 0];
  }));
  return chartFigure(root, 'Mean per rubric dimension on [0, 1] (rings at 0.25 steps), over tasks; a dimension with no score sits at the centre.',
    table('Dimensions: mean over tasks, 95% interval and n', ['Model', 'Dimension', 'Mean', '95% interval', 'n'], rows, { class: 'radar-table' }),
    { class: 'chart radar' });
}

export const noRadar = () => h('p', {}, 'No rubric dimensions were scored.');
