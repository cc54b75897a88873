import { escapeHtml } from '../../core/escape.js';
import type { Figure } from '../../learning/report/index.js';

const W = 560;
const H = 220;
const PAD = 40;

/** Bars of one figure per generator with their interval whiskers, on [lo, hi]. */
export function barPlot(title: string, rows: Array<{ name: string; figure: Figure }>, lo: number, hi: number): string {
  const band = (W - 2 * PAD) / Math.max(1, rows.length);
  const y = (v: number) => H - PAD - ((v - lo) / (hi - lo)) * (H - 2 * PAD);
  const bars = rows.map((r, i) => {
    const x = PAD + i * band + band * 0.2;
    const w = band * 0.6;
    const f = r.figure;
    if (f.mean === null) return `<text x="${x}" y="${y(lo) - 4}" font-size="11">no data</text>`;
    const top = Math.min(y(f.mean), y(Math.max(lo, 0)));
    const whisker = f.low !== null && f.high !== null ? `<line x1="${x + w / 2}" x2="${x + w / 2}" y1="${y(f.low)}" y2="${y(f.high)}" stroke="#222" stroke-width="1.5"/>` : '';
    return `<rect x="${x}" y="${top}" width="${w}" height="${Math.abs(y(f.mean) - y(Math.max(lo, 0)))}" fill="#4a78b5"/>${whisker}`
      + `<text x="${x + w / 2}" y="${H - PAD + 14}" font-size="11" text-anchor="middle">${escapeHtml(r.name)}</text>`;
  }).join('');
  return svg(title, `${axis(lo, hi, y)}${bars}`);
}

/** Points (x = a judge dimension, y = gain), one per deck, labelled by generator. */
export function scatterPlot(title: string, points: Array<{ x: number; y: number; label: string }>, xRange: [number, number], yRange: [number, number]): string {
  const px = (v: number) => PAD + ((v - xRange[0]) / (xRange[1] - xRange[0])) * (W - 2 * PAD);
  const py = (v: number) => H - PAD - ((v - yRange[0]) / (yRange[1] - yRange[0])) * (H - 2 * PAD);
  const dots = points.map(p => `<circle cx="${px(p.x)}" cy="${py(p.y)}" r="4" fill="#c0504d"><title>${escapeHtml(p.label)}: (${p.x.toFixed(2)}, ${p.y.toFixed(2)})</title></circle>`).join('');
  return svg(title, `${axis(yRange[0], yRange[1], py)}<text x="${W / 2}" y="${H - 6}" font-size="11" text-anchor="middle">${xRange[0]} … ${xRange[1]}</text>${dots}`);
}

function axis(lo: number, hi: number, y: (v: number) => number): string {
  const ticks = [lo, (lo + hi) / 2, hi];
  return `<line x1="${PAD}" x2="${W - PAD}" y1="${y(Math.max(lo, Math.min(0, hi)))}" y2="${y(Math.max(lo, Math.min(0, hi)))}" stroke="#999"/>`
    + ticks.map(t => `<text x="${PAD - 4}" y="${y(t) + 4}" font-size="10" text-anchor="end">${t.toFixed(2)}</text>`).join('');
}

function svg(title: string, body: string): string {
  return `<figure><svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(title)}">${body}</svg><figcaption>${escapeHtml(title)}</figcaption></figure>`;
}
