import type { Decomposition, DesignReport, ValidityReport } from '../../validity/index.js';
import { num, pValue, share, tauText } from './format.js';

/** Markdown cell text: no pipes or line breaks from user labels. */
const cell = (s: unknown) => String(s).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
export const table = (head: string[], rows: unknown[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map(r => `| ${r.map(cell).join(' | ')} |`)].join('\n');

export function validityMarkdown(r: ValidityReport): string {
  const c = r.counts;
  const out: string[] = [
    '# Judge validity',
    '',
    `${c.observations} observations in ${c.units} units; items ${c.items.join(', ')}; raters ${c.raters.join(', ')}; prompts ${c.prompts.join(', ')}; ${c.experts} expert(s); ${c.ratings} ratings (${c.unscored} unscored); ${c.outcomes} unit outcome(s). Bootstrap and permutation: ${r.resamples} resamples, seed ${r.seed}.`,
    '',
    ...r.notes.map(n => `- ${n}`),
    '',
    '## Alignment',
    '',
    'Kendall tau-b of each rater x prompt on each item with the experts\' mean per observation (n observations) and, after averaging per unit, with the outcome (units); percentile bootstrap intervals; the 90% lower bound is the paper\'s Table 3 figure. Pearson r beside tau for comparison with the literature.',
    '',
    table(['rater', 'prompt', 'item', 'n', 'unscored', 'tau experts', 'p', 'r experts', 'units', 'tau outcome', 'p', 'r outcome'],
      r.alignment.map(a => [a.rater, a.prompt, a.item, a.n, `${a.unscored}/${a.ratings}`, tauText(a.tauExperts), pValue(a.tauExperts?.pValue), num(a.pearsonExperts?.r),
        a.nUnits, tauText(a.tauOutcome), pValue(a.tauOutcome?.pValue), num(a.pearsonOutcome?.r)])),
    '',
    '## Real-world baselines',
    '',
    table(['baseline', 'kind', 'item', 'n', 'tau experts', 'units', 'tau outcome', 'r outcome'],
      r.baselines.map(b => [b.name, b.kind, b.item, b.tauExperts?.n ?? '–', tauText(b.tauExperts), b.tauOutcome?.n ?? '–', tauText(b.tauOutcome), num(b.pearsonOutcome?.r)])),
    '',
    '## Dependence (bias-corrected dCor^2)',
    '',
    table(['relationship', 'pairs', 'mean', '95% interval', 'min', 'max'],
      r.dependence.summaries.map(s => [s.type, s.pairs, num(s.mean), `[${num(s.low95)}, ${num(s.high95)}]`, num(s.min), num(s.max)])),
    '',
    ...r.dependence.withinItem.flatMap(({ item, matrix }) => [
      `Within item ${cell(item)}:`, '',
      table(['', ...matrix.labels.map(cell)], matrix.labels.map((l, i) => [l, ...matrix.values[i]!.map(v => num(v))])), '',
    ]),
    '## Ensembles',
    '',
    ...r.ensembles.skipped.map(s => `- ${s}`),
    '',
    table(['ensemble', 'prompt', 'item', 'scored', 'tau experts', 'tau outcome'],
      r.ensembles.rows.map(e => [e.kind, e.prompt, e.item, e.scored, tauText(e.tauExperts), tauText(e.tauOutcome)])),
    '',
    table(['ensemble', 'axis', 'median tau ensemble', 'median tau raters', 'change', '95% interval', 'p'],
      r.ensembles.tests.map(t => [t.kind, t.axis, num(t.medianEnsemble), num(t.medianIndividual), num(t.change), `[${num(t.low95)}, ${num(t.high95)}]`, pValue(t.pValue)])),
    '',
    '## Robustness',
    '',
    table(['rater', 'prompt', 'item', 'Theil-Sen slope [95%]', 'Siegel slope', 'top - bottom quartile [95%]', 'p', 'permutation p (experts)', 'permutation p (outcome)'],
      r.robustness.map(x => [x.rater, x.prompt, x.item,
        x.theilSen ? `${num(x.theilSen.slope)} [${num(x.theilSen.low95)}, ${num(x.theilSen.high95)}]` : '–', num(x.siegel?.slope),
        x.quartile ? `${num(x.quartile.difference)} [${num(x.quartile.low95)}, ${num(x.quartile.high95)}] (n ${x.quartile.nTop}/${x.quartile.nBottom})` : '–', pValue(x.quartile?.pValue),
        x.permutationExperts ? `${pValue(x.permutationExperts.pValue)}${x.permutationExperts.above ? ' (above)' : ''}` : '–',
        x.permutationOutcome ? `${pValue(x.permutationOutcome.pValue)}${x.permutationOutcome.above ? ' (above)' : ''}` : '–'])),
    '',
    '## Where the error lives',
    '',
    designText(r.decomposition.design),
    '',
    ...decompositionText('Squared error e = (r\' - h\')^2', r.decomposition.squaredError, 'developer-controlled (rater, prompt)'),
    ...decompositionText('Signed error sign(r\' - h\') (r\' - h\')^2', r.decomposition.signedError, 'developer-controlled (rater, prompt)'),
    ...(r.decomposition.experts ? [
      '### Experts in place of rater x prompt', '', designText(r.decomposition.experts.design), '',
      ...decompositionText('Squared error of each expert against the others\' mean', r.decomposition.experts.squaredError, 'expert-controlled'),
    ] : []),
    '## D-study',
    '',
    ...dStudyText(r),
  ];
  return `${out.join('\n')}\n`;
}

export function designText(d: DesignReport): string {
  const facets = d.facets.join(' x ');
  if (d.reason) return `Not decomposed: ${d.reason}.`;
  if (d.fullyCrossed) return `Fully crossed ${facets}: ${d.cellsUsed} cells.`;
  const listed = d.missing.map(m => Object.values(m).join('/')).join('; ');
  return `NOT fully crossed: ${d.missingCells} of ${d.cellsExpected} cells are missing (${listed}${d.missingCells > d.missing.length ? '; ...' : ''}). The decomposition uses the ${d.cellsUsed} cells of the observations with every cell, leaving out ${d.droppedObservations.join(', ')}.${d.singleLevelFacets.length ? ` Single-level facets left out: ${d.singleLevelFacets.join(', ')}.` : ''}`;
}

function decompositionText(title: string, d: Decomposition | null, controlledName: string): string[] {
  if (!d) return [];
  return [
    `### ${title}`, '',
    table(['component', 'ANOVA-EMS', 'REML', 'share [95%]'], Object.entries(d.components).map(([k, c]) => [k, num(c.anovaEstimate, 5), num(c.estimate, 5), share(c.share, c.low95, c.high95)])),
    '',
    `${controlledName}: ${share(d.controlled.share, d.controlled.low95, d.controlled.high95)}; evidence-conditioned (the rest): ${share(d.evidence.share, d.evidence.low95, d.evidence.high95)}. ${d.resamples} resamples of observations.`,
    '',
  ];
}

function dStudyText(r: ValidityReport): string[] {
  const d = r.dStudy;
  if (!d) return ['Not computed (no decomposition of the ratings).', ''];
  const prompts = [...new Set(d.grid.map(g => g.prompts))];
  return (['joint', 'composite'] as const).flatMap(conv => [
    `E rho^2 (Phi) for the object ${d.objectOfMeasurement.join(' x ')}, convention '${conv}'; **bold** meets the ${d.target} target.`, '',
    table(['raters \\ prompts', ...prompts.map(String)], [...new Set(d.grid.map(g => g.raters))].map(n => [n, ...prompts.map(p => {
      const g = d.grid.find(x => x.convention === conv && x.raters === n && x.prompts === p)!;
      const text = `${num(g.eRho2)} (${num(g.phi)})`;
      return g.meetsTarget ? `**${text}**` : text;
    })])),
    '',
  ]);
}
