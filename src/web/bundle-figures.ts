import { escapeHtml as e } from '../core/escape.js';
import { barPlot, scatterPlot } from '../report/learning/plots.js';
import { radarSvg } from '../report/scenario/radar.js';
import { tauPlot } from '../report/validity/svg.js';
import type { PairedDifference, RunCharts } from './results-charts.js';

/** Styles of the figures' marks (the report's SVG writers name these classes). */
export const FIGURE_STYLE = `figure{margin:12px 0}svg text{font-size:11px;fill:#333}.grid{stroke:#e4e7ec}.axis{stroke:#9aa3af}.pt{fill:#4a78c2}.ci{stroke:#9bb4de}.bl{fill:#d08a2c}
.fd{fill:#1f5fa8}.fw{fill:#8a5a00}.fr{stroke:#1f5fa8;stroke-width:2}.fr.w{stroke:#8a5a00}.warn{color:#8a5a00}`;

const num = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? '–' : v.toFixed(digits));
const interval = (x: { low: number | null; high: number | null }) => (x.low === null ? '–' : `${num(x.low)} – ${num(x.high)}`);
const tauText = (t: { tau: number; low90: number; high90: number } | null) => (t && Number.isFinite(t.tau) ? `${num(t.tau)} [${num(t.low90)}, ${num(t.high90)}]` : '–');

/** A table of text cells, every one escaped: what a screen reader reads of the chart before it. */
function table(caption: string, head: string[], rows: Array<Array<string | number>>, cls: string): string {
  return `<table class="${cls}"><caption>${e(caption)}</caption><thead><tr>${head.map(c => `<th scope="col">${e(c)}</th>`).join('')}</tr></thead>`
    + `<tbody>${rows.map(r => `<tr>${r.map(c => `<td>${e(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

const figure = (cls: string, svg: string, caption: string, numbers: string) => `<figure class="${cls}">${svg}<figcaption>${e(caption)}</figcaption>${numbers}</figure>`;

/**
 * The figures the run's page draws from `GET /api/runs/<id>/charts`, written as inline SVG from
 * the same numbers (`runCharts`), each followed by its table. Empty for a kind with none.
 */
export function bundleFigures(c: RunCharts): string {
  const out: string[] = [];
  if (c.radar) out.push('<h3>Rubric dimensions</h3>', radar(c.radar));
  if (c.radar || c.comparisons.length) out.push('<h3>Paired differences between models</h3>', differences(c.comparisons));
  if (c.tau) out.push('<h3>Alignment: tau with experts against tau with the outcome</h3>', alignment(c.tau));
  if (c.learning) out.push('<h3>Learning: gains and judges against gain</h3>', learning(c.learning));
  return out.join('\n');
}

function radar(r: NonNullable<RunCharts['radar']>): string {
  const name = (m: (typeof r.models)[number]) => m.model + (m.isBaseline ? ' (baseline)' : '');
  const svg = radarSvg({ axes: r.axes, series: r.models.map(m => ({ model: name(m), values: r.axes.map(a => m.dimensions[a]?.mean ?? null) })) });
  const rows = r.models.flatMap(m => r.axes.map(a => {
    const d = m.dimensions[a];
    return [name(m), a, d ? num(d.mean) : 'n/a', d ? interval(d) : '–', d?.n ?? 0];
  }));
  return figure('radar', svg, 'Mean per rubric dimension on [0, 1] (rings at 0.25 steps), over tasks; a dimension with no score sits at the centre.',
    table('Dimensions: mean over tasks, 95% interval and n', ['Model', 'Dimension', 'Mean', '95% interval', 'n'], rows, 'radar-table'));
}

/** A forest plot of a − b around 0, one row per pair; amber diamonds where the models' own intervals overlap. */
export function forestSvg(rows: PairedDifference[]): string {
  const drawn = rows.filter(r => r.difference !== null);
  const extent = Math.max(0.1, ...drawn.flatMap(r => [Math.abs(r.low ?? r.difference!), Math.abs(r.high ?? r.difference!)]));
  const w = 760, left = 260, right = 40, rowH = 24, top = 8;
  const height = top + drawn.length * rowH + 36;
  const x = (v: number) => (left + ((v + extent) / (2 * extent)) * (w - left - right)).toFixed(1);
  const ticks = [-extent, -extent / 2, 0, extent / 2, extent].map(t => `<line class="${t === 0 ? 'axis' : 'grid'}" x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${height - 30}"/>`
    + `<text x="${x(t)}" y="${height - 16}" text-anchor="middle">${num(t, 2)}</text>`).join('');
  const marks = drawn.map((r, i) => {
    const y = top + i * rowH + rowH / 2;
    const cx = Number(x(r.difference!));
    const bar = r.low === null || r.high === null ? '' : `<line class="fr${r.overlap ? ' w' : ''}" x1="${x(r.low)}" x2="${x(r.high)}" y1="${y}" y2="${y}"/>`;
    const dot = r.overlap ? `<path class="fw" d="M${cx} ${y - 6}L${cx + 6} ${y}L${cx} ${y + 6}L${cx - 6} ${y}Z"/>` : `<circle class="fd" cx="${cx}" cy="${y}" r="4"/>`;
    const label = `${r.scope}: ${r.a} − ${r.b}`;
    return `<g><title>${e(`${label}: ${num(r.difference)} [${interval(r)}], n ${r.n}${r.note ? `; ${r.note}` : ''}`)}</title>`
      + `<text x="${left - 8}" y="${y + 4}" text-anchor="end">${e(label.length > 44 ? `${label.slice(0, 43)}…` : label)}</text>${bar}${dot}</g>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${height}" width="${w}" height="${height}" role="img" aria-label="Paired differences a − b with 95% intervals; the numbers are in the table below">`
    + `${ticks}${marks}<text x="${(left + w - right) / 2}" y="${height - 2}" text-anchor="middle">a − b (95% paired-bootstrap interval)</text></svg>`;
}

function differences(rows: PairedDifference[]): string {
  if (rows.length === 0) return '<p>No pair of models to compare (comparisons need two models under test with shared items).</p>';
  const warned = rows.filter(r => r.overlap).length;
  return figure('forest', forestSvg(rows),
    `Dots are paired differences a − b, bars their 95% paired-bootstrap intervals; amber diamonds: the models' own intervals overlap (${warned} of ${rows.length}), so the report does not say which is better.`,
    table('Paired differences: a − b, 95% interval, n and the report\'s note', ['Compared on', 'a', 'b', 'n', 'a − b', '95% interval', 'Note'],
      rows.map(r => [r.scope, r.a, r.b, r.n, num(r.difference), interval(r), r.note ?? '–']), 'differences'));
}

function alignment(t: NonNullable<RunCharts['tau']>): string {
  const items = [...new Set([...t.alignment.map(a => a.item), ...t.baselines.map(b => b.item)])].sort();
  const notes = t.notes.map(n => `<p class="note">${e(n)}</p>`).join('');
  return notes + items.map(item => figure('tau', tauPlot(t, item), `Item ${item}: points are rater × prompt with 90% intervals; squares are baselines. Points missing a tau are only in the table.`,
    table(`Item ${item}: Kendall tau-b with experts and with the outcome (90% interval)`, ['Rater / prompt', 'Row', 'n', 'tau with experts', 'units', 'tau with outcome', 'unscored'], [
      ...t.alignment.filter(a => a.item === item).map(a => [`${a.rater}/${a.prompt}`, 'rater × prompt', a.n, tauText(a.tauExperts), a.nUnits, tauText(a.tauOutcome), a.unscored]),
      ...t.baselines.filter(b => b.item === item).map(b => [b.name, `baseline (${b.kind})`, '–', b.kind === 'experts' ? '1 (by definition)' : tauText(b.tauExperts), '–', tauText(b.tauOutcome), '–']),
    ], 'tau-table'))).join('');
}

const OUTCOMES = [['pre', 'pretest'], ['post', 'posttest'], ['gain', 'gain (post − pre)'], ['near', 'near transfer'], ['far', 'far transfer']] as const;

function learning(l: NonNullable<RunCharts['learning']>): string {
  const name = (g: (typeof l.generators)[number]) => g.name + (g.baseline ? ' (baseline)' : '');
  const gains = figure('gain', barPlot('Gain (post − pre) per generator, 95% interval over units', l.generators.map(g => ({ name: name(g), figure: g.gain })), -1, 1),
    'Per generator: pretest, posttest, gain, near and far transfer (share of items right), means over units with 95% bootstrap intervals; the bars are the gain.',
    table('Learner outcomes per generator: mean over units, 95% interval and n (units)', ['Generator', 'Figure', 'Mean', '95% interval', 'n'],
      l.generators.flatMap(g => OUTCOMES.map(([key, label]) => [name(g), label, num(g[key].mean), interval(g[key]), g[key].n])), 'gain-table'));
  const judges = (['d1', 'd2'] as const).map(dim => {
    const points = l.decks[dim];
    const label = dim.toUpperCase();
    if (points.length === 0) return `<p>No deck has both a ${label} judgment and learners' gain yet.</p>`;
    return figure(`scatter-${dim}`, scatterPlot(`${label} (x, 1–5) against gain (y) per deck`, points, [1, 5], [-1, 1]),
      `${label} (x) against the learners' mean gain (y), one point per deck (unit / generator).`,
      table(`${label} against gain per deck`, ['Deck (unit / generator)', label, 'Gain'], points.map(p => [p.label, num(p.x, 2), num(p.y, 3)]), `${dim}-table`));
  });
  return [gains, ...judges].join('');
}
