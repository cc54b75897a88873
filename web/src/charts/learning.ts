import * as Plot from '@observablehq/plot';
import { chartFigure, interval } from '../chart.js';
import { h, num, table } from '../dom.js';
import type { DeckPoint, LearningKey, RunCharts } from '../types.js';

type Learning = NonNullable<RunCharts['learning']>;
const OUTCOMES: Array<[LearningKey, string]> = [['pre', 'pretest'], ['post', 'posttest'], ['gain', 'gain (post − pre)'], ['near', 'near transfer'], ['far', 'far transfer']];

/** The learning report's figures: outcomes per generator with intervals over units, and D1/D2 against gain per deck. */
export function learningFigures(data: Learning): HTMLElement {
  return h('div', {}, gainFigure(data), ...(['d1', 'd2'] as const).map(d => judgeGainFigure(data.decks[d], d)));
}

function gainFigure(data: Learning): HTMLElement {
  const rows = data.generators.flatMap(g => OUTCOMES.map(([key, label]) => ({ generator: g.name + (g.baseline ? ' (baseline)' : ''), key, label, ...g[key] })));
  const drawn = rows.filter(r => r.mean !== null);
  const svg = Plot.plot({
    width: 760, marginLeft: 150, marginRight: 130, height: 40 + drawn.length * 22 + OUTCOMES.length * 12,
    style: { fontSize: '12px', background: 'transparent' },
    ariaLabel: 'Learner outcomes per generator with 95% intervals over units; the numbers are in the table below',
    x: { label: 'share right / gain (95% interval over units)', domain: [-1, 1], grid: true }, y: { label: null }, fy: { label: null, domain: OUTCOMES.map(o => o[1]) },
    marks: [
      Plot.ruleX([0], { stroke: '#767676' }),
      Plot.ruleY(drawn.filter(r => r.low !== null), { fy: 'label', y: 'generator', x1: 'low', x2: 'high', stroke: '#1f5fa8', strokeWidth: 2 }),
      Plot.dot(drawn, { fy: 'label', y: 'generator', x: 'mean', fill: '#1f5fa8', r: 4 }),
    ],
  });
  return chartFigure(svg, 'Per generator: pretest, posttest, gain, near and far transfer (share of items right), means over units with 95% bootstrap intervals.',
    table('Learner outcomes per generator: mean over units, 95% interval and n (units)', ['Generator', 'Figure', 'Mean', '95% interval', 'n'],
      rows.map(r => [r.generator, r.label, num(r.mean), interval(r), r.n]), { class: 'gain-table' }),
    { class: 'chart gain' });
}

function judgeGainFigure(points: DeckPoint[], dim: 'd1' | 'd2'): HTMLElement {
  const name = dim.toUpperCase();
  if (points.length === 0) return h('p', {}, `No deck has both a ${name} judgment and learners' gain yet.`);
  const svg = Plot.plot({
    width: 520, height: 320, marginLeft: 50, style: { fontSize: '12px', background: 'transparent' },
    ariaLabel: `${name} against gain per deck; the numbers are in the table below`,
    x: { label: `${name} (judges' mean, 1–5)`, domain: [1, 5], grid: true }, y: { label: 'gain (post − pre)', domain: [-1, 1], grid: true },
    marks: [
      Plot.ruleY([0], { stroke: '#767676' }), Plot.dot(points, { x: 'x', y: 'y', fill: '#b03a2e', r: 5 }),
      // Labels point inwards: a deck rated near 5 had its label cut at the plot's right edge.
      Plot.text(points.filter(p => p.x <= 3), { x: 'x', y: 'y', text: 'label', dx: 7, textAnchor: 'start', fill: '#111' }),
      Plot.text(points.filter(p => p.x > 3), { x: 'x', y: 'y', text: 'label', dx: -7, textAnchor: 'end', fill: '#111' }),
    ],
  });
  return chartFigure(svg, `${name} (x) against the learners' mean gain (y), one point per deck (unit / generator).`,
    table(`${name} against gain per deck`, ['Deck (unit / generator)', name, 'Gain'], points.map(p => [p.label, num(p.x, 2), num(p.y, 3)]), { class: `${dim}-table` }),
    { class: `chart scatter-${dim}` });
}
