import type { GroupCell } from './data.js';
import { escapeHtml as e } from '../core/escape.js';

const pct = (x: number | null) => (x === null ? '–' : (x * 100).toFixed(1));

/**
 * One panel of the small multiples: the values of one group field (topic, L1, level, evidence) as
 * rows, each a point at the mean with its 95% interval, on a shared 0-100 axis, so panels compare
 * at a glance. A small group (n < 10) is drawn hollow and dashed and says so in its label.
 */
function panel(field: string, gs: GroupCell[]): string {
  // Value names on the left, the n (and the small flag) on the right, the axis between them.
  const w = 360, rowH = 18, left = 132, right = 86, top = 4;
  const width = w - left - right;
  const h = top + gs.length * rowH + 18;
  const x = (v: number) => (left + v * width).toFixed(1);
  const grid = [0, 0.5, 1].map(v => `<line x1="${x(v)}" x2="${x(v)}" y1="${top}" y2="${h - 16}" class="grid"/><text x="${x(v)}" y="${h - 4}" text-anchor="middle">${v * 100}</text>`).join('');
  const rows = gs.map((g, i) => {
    const y = top + i * rowH + rowH / 2;
    const name = g.value.length > 18 ? `${g.value.slice(0, 17)}…` : g.value;
    const cls = g.small ? ' class="small"' : '';
    const label = `<text x="2" y="${y + 4}"${cls}><title>${e(g.value)}: ${pct(g.mean)} [${pct(g.low)}, ${pct(g.high)}], n=${g.n}</title>${e(name)}</text>` +
      `<text x="${w - right + 8}" y="${y + 4}"${cls}>(n=${g.n}${g.small ? ', small' : ''})</text>`;
    if (g.mean === null) return label;
    const line = g.low === null || g.high === null ? '' : `<line x1="${x(g.low)}" x2="${x(g.high)}" y1="${y}" y2="${y}" class="${g.small ? 'ci-small' : 'ci'}"/>`;
    return `${label}${line}<circle cx="${x(g.mean)}" cy="${y}" r="3.5" class="${g.small ? 'pt-small' : 'pt'}"/>`;
  }).join('');
  return `<figure class="multiple"><figcaption>${e(field)}</figcaption><svg role="img" aria-label="score by ${e(field)} with 95% intervals" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">${grid}${rows}</svg></figure>`;
}

/** Small multiples of one model's groups on one test, one panel per group field, in the order given. */
export function groupPlots(gs: GroupCell[]): string {
  const fields = [...new Set(gs.map(g => g.field))];
  if (!fields.length) return '';
  return `<div class="multiples">${fields.map(f => panel(f, gs.filter(g => g.field === f))).join('')}</div>`;
}
