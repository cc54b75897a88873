import * as Plot from '@observablehq/plot';
import { chartFigure, interval } from '../chart.js';
import { h, num, table } from '../dom.js';
import type { PairedDifference } from '../types.js';

type Drawn = PairedDifference & { pair: string };
const colour = (d: Drawn) => (d.overlap ? '#8a5a00' : '#1f5fa8');

/**
 * Paired differences a - b with their 95% intervals, one row per pair (a forest plot around 0),
 * and the report's words for each: the overlap warning where it cannot rank the two.
 */
export function differencesFigure(rows: PairedDifference[], label = 'Paired differences'): HTMLElement {
  if (rows.length === 0) return h('p', {}, 'No pair of models to compare (comparisons need two models under test with shared items).');
  const drawn: Drawn[] = rows.filter(r => r.difference !== null).map(r => ({ ...r, pair: `${r.a} − ${r.b}` }));
  const scopes = [...new Set(drawn.map(r => r.scope))];
  const extent = Math.max(0.1, ...drawn.flatMap(r => [Math.abs(r.low ?? r.difference!), Math.abs(r.high ?? r.difference!)]));
  const svg = Plot.plot({
    width: 760, marginLeft: 180, marginRight: 120, height: 50 + drawn.length * 28 + scopes.length * 10,
    style: { fontSize: '12px', background: 'transparent' },
    ariaLabel: `${label}: a minus b with 95% intervals; the numbers are in the table below`,
    x: { label: 'a − b (95% interval)', grid: true, domain: [-extent, extent] },
    y: { label: null }, fy: { label: null },
    marks: [
      Plot.ruleX([0], { stroke: '#4a4a4a' }),
      Plot.ruleY(drawn.filter(r => r.low !== null), { fy: 'scope', y: 'pair', x1: 'low', x2: 'high', stroke: colour, strokeWidth: 2 }),
      Plot.dot(drawn, { fy: 'scope', y: 'pair', x: 'difference', fill: colour, symbol: (d: Drawn) => (d.overlap ? 'diamond' : 'circle'), r: 4 }),
    ],
  });
  const warned = rows.filter(r => r.overlap).length;
  return chartFigure(svg,
    `Dots are paired differences a − b, bars their 95% paired-bootstrap intervals; amber diamonds: the models' own intervals overlap (${warned} of ${rows.length}), so the report does not say which is better.`,
    table(`${label}: a − b, 95% interval, n and the report's note`, ['Compared on', 'a', 'b', 'n', 'a − b', '95% interval', 'Note'],
      rows.map(r => [r.scope, r.a, r.b, r.n, num(r.difference), interval(r), r.note ? h('span', { class: r.overlap ? 'warn' : '' }, r.note) : '–']), { class: 'differences' }),
    { class: 'chart forest' });
}
