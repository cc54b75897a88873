import * as Plot from '@observablehq/plot';
import { chartFigure } from '../chart.js';
import { h, num, table } from '../dom.js';
import type { RunCharts, Tau } from '../types.js';

type TauData = NonNullable<RunCharts['tau']>;
const tauText = (t: Tau | null) => (t && Number.isFinite(t.tau) ? `${num(t.tau)} [${num(t.low90)}, ${num(t.high90)}]` : '–');
const finite = (t: Tau | null): t is Tau => t !== null && Number.isFinite(t.tau);

/**
 * Per item: tau with the experts (x) against tau with the outcome (y), one point per rater x
 * prompt with 90% whiskers, baselines as squares (the experts sit at x = 1), as the validity
 * report draws it; then every row's numbers, including those the plot cannot place.
 */
export function tauFigures(data: TauData): HTMLElement {
  const items = [...new Set([...data.alignment.map(a => a.item), ...data.baselines.map(b => b.item)])].sort();
  const figures = items.map(item => {
    const points = data.alignment.filter(a => a.item === item && finite(a.tauExperts) && finite(a.tauOutcome))
      .map(a => ({ label: `${a.rater}/${a.prompt}`, x: a.tauExperts!.tau, y: a.tauOutcome!.tau, x1: a.tauExperts!.low90, x2: a.tauExperts!.high90, y1: a.tauOutcome!.low90, y2: a.tauOutcome!.high90 }));
    const base = data.baselines.filter(b => b.item === item && finite(b.tauOutcome))
      .map(b => ({ label: `baseline ${b.name}`, x: b.kind === 'experts' ? 1 : b.tauExperts?.tau ?? 0, y: b.tauOutcome!.tau }));
    const svg = Plot.plot({
      width: 600, height: 420, marginLeft: 50, marginRight: 110, marginBottom: 40, style: { fontSize: '12px', background: 'transparent' },
      ariaLabel: `Item ${item}: tau with experts against tau with outcome; the numbers are in the table below`,
      x: { label: 'tau with experts', domain: [-1, 1], grid: true }, y: { label: 'tau with outcome', domain: [-1, 1], grid: true },
      marks: [
        Plot.ruleX([0], { stroke: '#767676' }), Plot.ruleY([0], { stroke: '#767676' }),
        Plot.link(points, { x1: 'x1', x2: 'x2', y1: 'y', y2: 'y', stroke: '#7aa6d8' }),
        Plot.link(points, { x1: 'x', x2: 'x', y1: 'y1', y2: 'y2', stroke: '#7aa6d8' }),
        Plot.dot(points, { x: 'x', y: 'y', fill: '#1f5fa8', r: 4 }),
        Plot.text(points, { x: 'x', y: 'y', text: 'label', dx: 6, dy: -8, textAnchor: 'start', fill: '#111', fontSize: 10 }),
        Plot.dot(base, { x: 'x', y: 'y', symbol: 'square', fill: '#8a5a00', r: 5 }),
        Plot.text(base, { x: 'x', y: 'y', text: 'label', dy: 14, textAnchor: 'end', fill: '#111' }),
      ],
    });
    const rows = [
      ...data.alignment.filter(a => a.item === item).map(a => [`${a.rater}/${a.prompt}`, 'rater × prompt', a.n, tauText(a.tauExperts), a.nUnits, tauText(a.tauOutcome), a.unscored]),
      ...data.baselines.filter(b => b.item === item).map(b => [b.name, `baseline (${b.kind})`, '–', b.kind === 'experts' ? '1 (by definition)' : tauText(b.tauExperts), '–', tauText(b.tauOutcome), '–']),
    ];
    return chartFigure(svg, `Item ${item}: points are rater × prompt with 90% intervals; squares are baselines. Points missing a tau (no experts or no outcome for it) are only in the table.`,
      table(`Item ${item}: Kendall tau-b with experts and with the outcome (90% interval)`, ['Rater / prompt', 'Row', 'n', 'tau with experts', 'units', 'tau with outcome', 'unscored'], rows, { class: 'tau-table' }),
      { class: 'chart tau' });
  });
  return h('div', {}, ...data.notes.map(n => h('p', { class: 'muted note' }, n)), ...figures);
}
