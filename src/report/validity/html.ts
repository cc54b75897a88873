import type { Decomposition, ValidityReport } from '../../validity/index.js';
import { escapeHtml as e } from '../../core/escape.js';
import { designText } from './markdown.js';
import { num, pValue, share, tauText } from './format.js';
import { dStudyPlot, tauPlot } from './svg.js';

export const table = (head: string[], rows: unknown[][]) =>
  `<table><thead><tr>${head.map(h => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.map(r => `<tr>${r.map(c => `<td>${e(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

/**
 * The validity report as one self-contained page: no script, a Content-Security-Policy that forbids
 * one, inline SVG plots, and every label from the user's files escaped.
 */
export function validityHtml(r: ValidityReport): string {
  const c = r.counts;
  const d = r.dStudy;
  const decomposition = (title: string, x: Decomposition | null, controlled: string) => x ? `<h3>${e(title)}</h3>${table(['component', 'ANOVA-EMS', 'REML', 'share [95%]'], Object.entries(x.components).map(([k, v]) => [k, num(v.anovaEstimate, 5), num(v.estimate, 5), share(v.share, v.low95, v.high95)]))}<p>${e(`${controlled}: ${share(x.controlled.share, x.controlled.low95, x.controlled.high95)}; evidence-conditioned: ${share(x.evidence.share, x.evidence.low95, x.evidence.high95)} (${x.resamples} resamples of observations).`)}</p>` : '';
  const body = [
    `<h1>Judge validity</h1><p>${e(`${c.observations} observations in ${c.units} units; items ${c.items.join(', ')}; raters ${c.raters.join(', ')}; prompts ${c.prompts.join(', ')}; ${c.experts} expert(s); ${c.ratings} ratings (${c.unscored} unscored); ${c.outcomes} outcomes. ${r.resamples} resamples, seed ${r.seed}.`)}</p>`,
    r.notes.length ? `<ul class="notes">${r.notes.map(n => `<li>${e(n)}</li>`).join('')}</ul>` : '',
    '<h2>Alignment</h2><p>Kendall tau-b with the experts\' mean (n observations) and with the outcome after averaging per unit; 90% and 95% percentile bootstrap intervals; Pearson r beside tau.</p>',
    table(['rater', 'prompt', 'item', 'n', 'unscored', 'tau experts', 'p', 'r experts', 'units', 'tau outcome', 'p', 'r outcome'],
      r.alignment.map(a => [a.rater, a.prompt, a.item, a.n, `${a.unscored}/${a.ratings}`, tauText(a.tauExperts), pValue(a.tauExperts?.pValue), num(a.pearsonExperts?.r), a.nUnits, tauText(a.tauOutcome), pValue(a.tauOutcome?.pValue), num(a.pearsonOutcome?.r)])),
    c.items.map(item => `<figure><figcaption>${e(item)}: tau with experts (x) and with outcome (y), 90% intervals; squares are baselines</figcaption>${tauPlot(r, item)}</figure>`).join(''),
    '<h2>Real-world baselines</h2>',
    table(['baseline', 'kind', 'item', 'tau experts', 'units', 'tau outcome'], r.baselines.map(b => [b.name, b.kind, b.item, tauText(b.tauExperts), b.tauOutcome?.n ?? '–', tauText(b.tauOutcome)])),
    '<h2>Dependence (bias-corrected dCor²)</h2>',
    table(['relationship', 'pairs', 'mean', '95% interval', 'min', 'max'], r.dependence.summaries.map(s => [s.type, s.pairs, num(s.mean), `[${num(s.low95)}, ${num(s.high95)}]`, num(s.min), num(s.max)])),
    r.dependence.withinItem.map(({ item, matrix }) => `<h4>${e(item)}</h4>${table(['', ...matrix.labels], matrix.labels.map((l, i) => [l, ...matrix.values[i]!.map(v => num(v))]))}`).join(''),
    '<h2>Ensembles</h2>',
    r.ensembles.skipped.map(s => `<p class="na">${e(s)}</p>`).join(''),
    table(['ensemble', 'prompt', 'item', 'scored', 'tau experts', 'tau outcome'], r.ensembles.rows.map(x => [x.kind, x.prompt, x.item, x.scored, tauText(x.tauExperts), tauText(x.tauOutcome)])),
    table(['ensemble', 'axis', 'median tau ensemble', 'median tau raters', 'change', '95% interval', 'p'], r.ensembles.tests.map(t => [t.kind, t.axis, num(t.medianEnsemble), num(t.medianIndividual), num(t.change), `[${num(t.low95)}, ${num(t.high95)}]`, pValue(t.pValue)])),
    '<h2>Robustness</h2>',
    table(['rater', 'prompt', 'item', 'Theil-Sen [95%]', 'Siegel', 'top - bottom quartile [95%]', 'p', 'perm. p experts', 'perm. p outcome'], r.robustness.map(x => [x.rater, x.prompt, x.item,
      x.theilSen ? `${num(x.theilSen.slope)} [${num(x.theilSen.low95)}, ${num(x.theilSen.high95)}]` : '–', num(x.siegel?.slope),
      x.quartile ? `${num(x.quartile.difference)} [${num(x.quartile.low95)}, ${num(x.quartile.high95)}]` : '–', pValue(x.quartile?.pValue),
      pValue(x.permutationExperts?.pValue), pValue(x.permutationOutcome?.pValue)])),
    '<h2>Where the error lives</h2>',
    `<p class="${r.decomposition.design.fullyCrossed ? '' : 'warn'}">${e(designText(r.decomposition.design))}</p>`,
    decomposition("Squared error (r' - h')²", r.decomposition.squaredError, 'developer-controlled (rater, prompt)'),
    decomposition("Signed error sign(r' - h') (r' - h')²", r.decomposition.signedError, 'developer-controlled (rater, prompt)'),
    r.decomposition.experts ? `<h3>Experts in place of rater x prompt</h3><p>${e(designText(r.decomposition.experts.design))}</p>${decomposition('Squared error of each expert against the others\' mean', r.decomposition.experts.squaredError, 'expert-controlled')}` : '',
    '<h2>D-study</h2>',
    d ? (['joint', 'composite'] as const).map(conv => `<figure><figcaption>${e(`E rho² of ${d.objectOfMeasurement.join(' x ')}, '${conv}' convention; target ${d.target}`)}</figcaption>${dStudyPlot(d, conv)}</figure>` +
      table(['raters', 'prompts', 'E rho²', 'Phi', `meets ${d.target}`], d.grid.filter(g => g.convention === conv).map(g => [g.raters, g.prompts, num(g.eRho2), num(g.phi), g.meetsTarget ? 'yes' : 'no']))).join('') : '<p class="na">Not computed.</p>',
  ].join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paideia judge validity</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d2330}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #d5d9e0;padding:.25rem .45rem;text-align:left;vertical-align:top}
th{background:#f3f5f8}.na{color:#8a919c}.warn{color:#8a4b00}figure{display:inline-block;margin:0 1rem 1rem 0}figcaption{font-weight:600}
svg text{font-size:10px;fill:#333}.grid{stroke:#e4e7ec}.axis{stroke:#9aa3af}.pt{fill:#4a78c2}.ci{stroke:#9bb4de}.bl{fill:#d08a2c}
.target{stroke:#c0392b;stroke-dasharray:5 4}.l0{stroke:#4a78c2;stroke-width:2}.l1{stroke:#2c9c6a;stroke-width:2}.l2{stroke:#d08a2c;stroke-width:2}.l3{stroke:#7a4fc2;stroke-width:2}
</style></head><body>
${body}
</body></html>
`;
}
