import { escapeHtml } from '../../core/escape.js';
import { fixed } from '../format.js';

/** Colour-blind-safe palette (Okabe & Ito 2008); series past the eighth reuse it. */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

/** Rough width of a character at font-size 12 (a wide estimate, so labels fit), and the line step. */
const CHAR_WIDTH = 7.2;
const LINE_HEIGHT = 14;
const WRAP = 18;

/** A label in lines of at most WRAP characters, broken at spaces (a longer word keeps its own line). */
export function wrapLabel(label: string): string[] {
  const lines: string[] = [];
  for (const word of label.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= WRAP) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [''];
}

export interface RadarData {
  axes: string[];
  series: Array<{ model: string; values: Array<number | null> }>;
}

/**
 * An inline SVG radar chart of dimension means on [0, 1]: one spoke per axis, rings at 0.25
 * steps, one closed polygon per series. A missing value is drawn at the centre and marked
 * "n/a" in the series' title, so a gap is never mistaken for a score.
 */
export function radarSvg(data: RadarData, size = 420): string {
  const { axes, series } = data;
  if (axes.length === 0) return '<p>No dimension scores to chart.</p>';
  const c = size / 2;
  const r = size / 2 - 90;
  const angle = (i: number) => -Math.PI / 2 + (2 * Math.PI * i) / axes.length;
  const at = (i: number, v: number) => [c + r * v * Math.cos(angle(i)), c + r * v * Math.sin(angle(i))] as const;
  const pt = ([x, y]: readonly [number, number]) => `${x.toFixed(1)},${y.toFixed(1)}`;
  const parts: string[] = [];
  for (const ring of [0.25, 0.5, 0.75, 1]) {
    parts.push(`<polygon points="${axes.map((_, i) => pt(at(i, ring))).join(' ')}" fill="none" stroke="#ccc"/>`);
  }
  // Labels wrap at word boundaries and the view box grows to hold them: a long dimension name
  // is never cut off at the edge of the chart.
  const box = { left: 0, top: 0, right: size, bottom: size };
  axes.forEach((axis, i) => {
    const [x, y] = at(i, 1);
    const [lx, ly] = at(i, 1.12);
    const anchor = Math.abs(lx - c) < 1 ? 'middle' : lx > c ? 'start' : 'end';
    const lines = wrapLabel(axis);
    const width = Math.max(...lines.map(l => l.length)) * CHAR_WIDTH;
    const top = ly < c - 1 ? ly - (lines.length - 1) * LINE_HEIGHT : ly;
    box.left = Math.min(box.left, anchor === 'end' ? lx - width : anchor === 'middle' ? lx - width / 2 : lx);
    box.right = Math.max(box.right, anchor === 'start' ? lx + width : anchor === 'middle' ? lx + width / 2 : lx);
    box.top = Math.min(box.top, top - LINE_HEIGHT);
    box.bottom = Math.max(box.bottom, top + lines.length * LINE_HEIGHT);
    parts.push(`<line x1="${c}" y1="${c}" x2="${x.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#ccc"/>`);
    const spans = lines.map((l, k) => `<tspan x="${lx.toFixed(1)}" y="${(top + k * LINE_HEIGHT).toFixed(1)}">${escapeHtml(l)}</tspan>`).join('');
    parts.push(`<text text-anchor="${anchor}" font-size="12"><title>${escapeHtml(axis)}</title>${spans}</text>`);
  });
  series.forEach((s, k) => {
    const colour = PALETTE[k % PALETTE.length]!;
    const title = `${s.model}: ${axes.map((a, i) => `${a} ${fixed(s.values[i], 3, 'n/a')}`).join(', ')}`;
    parts.push(`<polygon points="${s.values.map((v, i) => pt(at(i, v ?? 0))).join(' ')}" fill="${colour}" fill-opacity="0.15" stroke="${colour}" stroke-width="2"><title>${escapeHtml(title)}</title></polygon>`);
  });
  // The legend goes below the chart, so any number of series leaves the spokes readable.
  const below = Math.ceil(box.bottom) + 8;
  const legend = series.map((s, k) => `<rect x="8" y="${below + k * 18}" width="12" height="12" fill="${PALETTE[k % PALETTE.length]}"/><text x="26" y="${below + 10 + k * 18}" font-size="12">${escapeHtml(s.model)}</text>`).join('');
  const left = Math.floor(Math.min(box.left, 0)) - 4;
  const top = Math.floor(Math.min(box.top, 0)) - 4;
  const width = Math.ceil(Math.max(box.right, size)) + 4 - left;
  const height = below + series.length * 18 + 4 - top;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${left} ${top} ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Radar chart of dimension means">${parts.join('')}${legend}</svg>`;
}
