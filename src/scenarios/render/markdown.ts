import { stripControl } from '../../core/text-safety.js';
import type { Estimate } from '../analysis/estimate.js';
import type { ScenarioReport } from '../report.js';

/**
 * A table cell: model text may hold pipes and line breaks, which would break the table, and
 * HTML, which Markdown renderers would render.
 */
export function mdCell(text: string): string {
  return stripControl(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export const num = (x: number | null | undefined, digits = 3): string => (x === null || x === undefined ? 'n/a' : x.toFixed(digits));

export function fmtEstimate(e: Estimate): string {
  return e.mean === null ? 'n/a' : `${e.mean.toFixed(3)} [${e.low?.toFixed(3) ?? '-'}, ${e.high?.toFixed(3) ?? '-'}] n=${e.n}`;
}

export const dimensionLabel = (d: string | null): string => d ?? 'weighted score';

/**
 * A Markdown table: header, separator and rows from cell lists, so every line has the same
 * number of cells whatever the number of (possibly zero) variable columns.
 */
function table(header: string[], rows: string[][]): string[] {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), `|${header.map(() => '---|').join('')}`, ...rows.map(line)];
}

/** The report as Markdown (for the terminal and for pasting into notes). */
export function renderScenarioReport(r: ScenarioReport): string {
  const axes = r.radar.axes;
  const lines = [
    `# Scenario ${mdCell(r.scenario)} (run ${r.runId})`,
    '',
    r.evaluation ? `Judgment: ${mdCell(r.evaluation.name)} (version ${r.evaluation.version}). Means with 95% bootstrap intervals over tasks.` : 'No evaluation in this scenario.',
    '',
    ...table(
      ['model', 'score', ...axes.map(mdCell), 'dialogues (ended/capped/failed/running)', 'unscored'],
      r.models.map(m => [
        `${mdCell(m.model)}${m.isBaseline ? ' (baseline)' : ''}`, fmtEstimate(m.score),
        ...axes.map(a => (m.dimensions[a] ? fmtEstimate(m.dimensions[a]!) : 'n/a')),
        `${m.dialogues.ended}/${m.dialogues.capped}/${m.dialogues.failed}/${m.dialogues.running}`, String(m.unscored),
      ]),
    ),
  ];
  if (r.judges.length > 0) {
    lines.push(
      '', '## Judges', '',
      'Repeat variance: variance of a judge\'s score over repeats of the same dialogue, averaged over dialogues. Self-preference: judge minus panel on dialogues of its own family vs the others.',
      '',
      '| judge | spec | family | judgments | unscored | mean score | repeat variance (dialogues) | own family: judge - panel | other: judge - panel | excess | excess vs other judges |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...r.judges.map(j => `| ${mdCell(j.judge)} | ${mdCell(j.spec)} | ${mdCell(j.family)} | ${j.judgments} | ${j.unscored} | ${fmtEstimate(j.meanScore)} | ${num(j.repeatVariance.mean, 5)} (${j.repeatVariance.outputs}) | ${fmtEstimate(j.selfPreference.own.delta)} | ${fmtEstimate(j.selfPreference.other.delta)} | ${num(j.selfPreference.excess)} | ${num(j.selfPreference.excessOthers)} |`),
    );
  }
  if (r.comparisons.length > 0) {
    lines.push(
      '', '## Comparisons', '',
      'Paired bootstrap (95%) of the difference in weighted score, a - b, over the tasks both models were scored on.', '',
      ...table(['a', 'b', 'tasks', 'a - b', '95% interval', 'note'],
        r.comparisons.map(c => [mdCell(c.a), mdCell(c.b), String(c.n), num(c.difference), `[${num(c.low)}, ${num(c.high)}]`, mdCell(c.note)])),
    );
  }
  if (r.human) {
    lines.push(
      '', '## Judges and experts', '',
      `Experts: ${r.human.raters.map(x => `${mdCell(x.rater)} (${x.outputs})`).join(', ')}.`,
      '',
      '| judge | dimension | n | Kendall tau-b (p) | ICC(2,1) [95%] | mean judge - expert |',
      '|---|---|---|---|---|---|',
      ...r.human.agreement.map(a => `| ${mdCell(a.judge)} | ${mdCell(dimensionLabel(a.dimension))} | ${a.n} | ${num(a.kendallTauB)} (${num(a.kendallP, 4)}) | ${num(a.icc)} [${num(a.iccLow)}, ${num(a.iccHigh)}] | ${fmtEstimate(a.meanDeviation)} |`),
      '', '| dimension | Cronbach alpha [95%] | dialogues | experts | note |', '|---|---|---|---|---|',
      ...r.human.reliability.map(x => `| ${mdCell(dimensionLabel(x.dimension))} | ${num(x.alpha)} [${num(x.low)}, ${num(x.high)}] | ${x.n} | ${x.k} | ${mdCell(x.note ?? '')} |`),
    );
  }
  return lines.join('\n') + '\n';
}
