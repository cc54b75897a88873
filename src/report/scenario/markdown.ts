import type { Estimate } from '../../scenarios/analysis/estimate.js';
import type { ScenarioReport } from '../../scenarios/report.js';
import { fixed } from '../format.js';
import { cellText } from '../markdown-cell.js';

/** What the scenario tables show for a number they do not have. */
export const NA = 'n/a';

export const num = (x: number | null | undefined, digits = 3): string => fixed(x, digits, NA);

/** `mean [low, high] n=N` on [0, 1] with three decimals; `-` for a bound a single value does not have. */
export function fmtEstimate(e: Estimate): string {
  return e.mean === null ? NA : `${fixed(e.mean)} [${fixed(e.low, 3, '-')}, ${fixed(e.high, 3, '-')}] n=${e.n}`;
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

/** Every field path any model has a mean for, in first-seen order. */
export function fieldNames(r: ScenarioReport): string[] {
  return [...new Set(r.models.flatMap(m => Object.keys(m.fields)))];
}

/** What the score column is, in words. */
export function scoreNote(r: ScenarioReport): string {
  return r.scoreKind === 'elmes-mean'
    ? 'Score: no field has a scale, so it is ELMES\'s: per dialogue the mean of its numeric fields on their own values.'
    : 'Score: the weighted score on [0, 1].';
}

/** The report as Markdown (for the terminal and for pasting into notes). */
export function renderScenarioReport(r: ScenarioReport): string {
  const axes = r.radar.axes;
  const lines = [
    `# Scenario ${cellText(r.scenario)} (run ${r.runId})`,
    '',
    r.evaluation ? `Judgment: ${cellText(r.evaluation.name)} (version ${r.evaluation.version}). Means with 95% bootstrap intervals over tasks. ${scoreNote(r)}` : 'No evaluation in this scenario.',
    '',
    ...table(
      ['model', 'score', ...axes.map(cellText), 'dialogues (ended/capped/failed/pending)', 'unscored'],
      r.models.map(m => [
        `${cellText(m.model)}${m.isBaseline ? ' (baseline)' : ''}`, fmtEstimate(m.score),
        ...axes.map(a => (m.dimensions[a] ? fmtEstimate(m.dimensions[a]!) : 'n/a')),
        `${m.dialogues.ended}/${m.dialogues.capped}/${m.dialogues.failed}/${m.dialogues.running}`, String(m.unscored),
      ]),
    ),
  ];
  const fields = fieldNames(r);
  if (fields.length > 0) {
    lines.push(
      '', '## Fields', '', 'Each numeric field\'s mean on its own values (bool: share true), with its 95% interval over tasks.', '',
      ...table(['model', ...fields.map(cellText)], r.models.map(m => [cellText(m.model), ...fields.map(f => (m.fields[f] ? fmtEstimate(m.fields[f]!) : NA))])),
    );
  }
  if (r.failures.length > 0) {
    lines.push(
      '', '## Failures', '', 'Failed dialogues and judge calls, grouped by error (provider errors, never scored as wrong).', '',
      ...table(['model', 'step', 'count', 'status', 'error', 'example trial'],
        r.failures.map(f => [cellText(f.model), f.step, String(f.count), f.statusCode === null ? '-' : String(f.statusCode), cellText(f.message), f.exampleTrialId])),
    );
  }
  if (r.judges.length > 0) {
    lines.push(
      '', '## Judges', '',
      'Repeat variance: variance of a judge\'s score over repeats of the same dialogue, averaged over dialogues. Self-preference: judge minus panel on dialogues of its own family vs the others.',
      '',
      '| judge | spec | family | judgments | unscored | mean score | repeat variance (dialogues) | own family: judge - panel | other: judge - panel | excess | excess vs other judges |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...r.judges.map(j => `| ${cellText(j.judge)} | ${cellText(j.spec)} | ${cellText(j.family)} | ${j.judgments} | ${j.unscored} | ${fmtEstimate(j.meanScore)} | ${num(j.repeatVariance.mean, 5)} (${j.repeatVariance.outputs}) | ${fmtEstimate(j.selfPreference.own.delta)} | ${fmtEstimate(j.selfPreference.other.delta)} | ${num(j.selfPreference.excess)} | ${num(j.selfPreference.excessOthers)} |`),
    );
    const reasons = r.judges.flatMap(j => j.unscoredReasons.map(u => [cellText(j.judge), cellText(u.reason), String(u.count)]));
    if (reasons.length > 0) {
      lines.push('', '### Unscored judgments', '', 'Answers that never fit the format, by reason (the most frequent per judge); left out of every mean, never counted as 0.', '',
        ...table(['judge', 'reason', 'count'], reasons));
    }
  }
  if (r.comparisons.length > 0) {
    lines.push(
      '', '## Comparisons', '',
      'Paired bootstrap (95%) of the difference in weighted score, a - b, over the tasks both models were scored on.', '',
      ...table(['a', 'b', 'tasks', 'a - b', '95% interval', 'note'],
        r.comparisons.map(c => [cellText(c.a), cellText(c.b), String(c.n), num(c.difference), `[${num(c.low)}, ${num(c.high)}]`, cellText(c.note)])),
    );
  }
  if (r.human) {
    lines.push(
      '', '## Judges and experts', '',
      `Experts: ${r.human.raters.map(x => `${cellText(x.rater)} (${x.outputs})`).join(', ')}.`,
      '',
      '| judge | dimension | n | Kendall tau-b (p) | ICC(2,1) [95%] | mean judge - expert |',
      '|---|---|---|---|---|---|',
      ...r.human.agreement.map(a => `| ${cellText(a.judge)} | ${cellText(dimensionLabel(a.dimension))} | ${a.n} | ${num(a.kendallTauB)} (${num(a.kendallP, 4)}) | ${num(a.icc)} [${num(a.iccLow)}, ${num(a.iccHigh)}] | ${fmtEstimate(a.meanDeviation)} |`),
      '', '| dimension | Cronbach alpha [95%] | dialogues | experts | note |', '|---|---|---|---|---|',
      ...r.human.reliability.map(x => `| ${cellText(dimensionLabel(x.dimension))} | ${num(x.alpha)} [${num(x.low)}, ${num(x.high)}] | ${x.n} | ${x.k} | ${cellText(x.note ?? '')} |`),
    );
  }
  return lines.join('\n') + '\n';
}
