import type { DStudyReport, ValidityReport } from '../../validity/index.js';
import { escapeHtml as e } from '../../core/escape.js';

const W = 420;
const H = 320;
const M = 44;
const sx = (v: number) => M + ((v + 1) / 2) * (W - 2 * M);
const sy = (v: number) => H - M - ((v + 1) / 2) * (H - 2 * M);

/** tau with experts (x) against tau with the outcome (y), one point per rater x prompt; baselines as squares. */
export function tauPlot(r: Pick<ValidityReport, 'alignment' | 'baselines'>, item: string): string {
  const points = r.alignment.filter(a => a.item === item && a.tauExperts && a.tauOutcome && !Number.isNaN(a.tauExperts.tau) && !Number.isNaN(a.tauOutcome.tau));
  const marks = points.map(a => {
    const x = sx(a.tauExperts!.tau);
    const y = sy(a.tauOutcome!.tau);
    return `<g><title>${e(`${a.rater} / ${a.prompt}: tau experts ${a.tauExperts!.tau.toFixed(3)} (n ${a.n}), tau outcome ${a.tauOutcome!.tau.toFixed(3)} (units ${a.nUnits})`)}</title>` +
      `<line class="ci" x1="${sx(a.tauExperts!.low90)}" x2="${sx(a.tauExperts!.high90)}" y1="${y}" y2="${y}"/><line class="ci" x1="${x}" x2="${x}" y1="${sy(a.tauOutcome!.low90)}" y2="${sy(a.tauOutcome!.high90)}"/>` +
      `<circle class="pt" cx="${x}" cy="${y}" r="4"/><text x="${x + 6}" y="${y - 6}">${e(`${a.rater}/${a.prompt}`)}</text></g>`;
  }).join('');
  // The experts agree with themselves by definition, so they sit at x = 1.
  const base = r.baselines.filter(b => b.item === item && b.tauOutcome && !Number.isNaN(b.tauOutcome.tau)).map(b => {
    const x = sx(b.kind === 'experts' ? 1 : b.tauExperts?.tau ?? 0);
    const y = sy(b.tauOutcome!.tau);
    return `<g><title>${e(`baseline ${b.name}: tau outcome ${b.tauOutcome!.tau.toFixed(3)}`)}</title><rect class="bl" x="${x - 4}" y="${y - 4}" width="8" height="8"/><text x="${x - 6}" y="${y + 16}" text-anchor="end">${e(b.name)}</text></g>`;
  }).join('');
  const ticks = [-1, -0.5, 0, 0.5, 1].map(t => `<line class="grid" x1="${sx(t)}" x2="${sx(t)}" y1="${M}" y2="${H - M}"/><line class="grid" x1="${M}" x2="${W - M}" y1="${sy(t)}" y2="${sy(t)}"/><text x="${sx(t)}" y="${H - M + 14}" text-anchor="middle">${t}</text><text x="${M - 6}" y="${sy(t) + 4}" text-anchor="end">${t}</text>`).join('');
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${e(`tau with experts against tau with outcome, item ${item}`)}">${ticks}` +
    `<line class="axis" x1="${sx(0)}" x2="${sx(0)}" y1="${M}" y2="${H - M}"/><line class="axis" x1="${M}" x2="${W - M}" y1="${sy(0)}" y2="${sy(0)}"/>${marks}${base}` +
    `<text x="${W / 2}" y="${H - 8}" text-anchor="middle">tau with experts</text><text transform="translate(12 ${H / 2}) rotate(-90)" text-anchor="middle">tau with outcome</text></svg>`;
}

/** E rho^2 against the number of raters, one line per number of prompts, the target dashed. */
export function dStudyPlot(d: DStudyReport, convention: 'joint' | 'composite'): string {
  const cells = d.grid.filter(g => g.convention === convention);
  const raters = [...new Set(cells.map(c => c.raters))];
  const px = (n: number) => M + (raters.indexOf(n) / Math.max(1, raters.length - 1)) * (W - 2 * M);
  const py = (v: number) => H - M - Math.max(0, Math.min(1, v)) * (H - 2 * M);
  const lines = [...new Set(cells.map(c => c.prompts))].map((p, k) => {
    const pts = cells.filter(c => c.prompts === p).map(c => `${px(c.raters)},${py(c.eRho2)}`).join(' ');
    const last = cells.filter(c => c.prompts === p).pop()!;
    return `<polyline class="l${k % 4}" fill="none" points="${pts}"/><text x="${W - M + 4}" y="${py(last.eRho2) + 4}">${p} prompt(s)</text>`;
  }).join('');
  const axis = raters.map(n => `<text x="${px(n)}" y="${H - M + 14}" text-anchor="middle">${n}</text>`).join('') +
    [0, 0.25, 0.5, 0.75, 1].map(t => `<line class="grid" x1="${M}" x2="${W - M}" y1="${py(t)}" y2="${py(t)}"/><text x="${M - 6}" y="${py(t) + 4}" text-anchor="end">${t}</text>`).join('');
  return `<svg viewBox="0 0 ${W + 60} ${H}" width="${W + 60}" height="${H}" role="img" aria-label="${e(`D-study, ${convention} convention`)}">${axis}` +
    `<line class="target" x1="${M}" x2="${W - M}" y1="${py(d.target)}" y2="${py(d.target)}"/><text x="${M + 4}" y="${py(d.target) - 4}">target ${d.target}</text>${lines}` +
    `<text x="${W / 2}" y="${H - 8}" text-anchor="middle">raters</text><text transform="translate(12 ${H / 2}) rotate(-90)" text-anchor="middle">E rho^2</text></svg>`;
}
