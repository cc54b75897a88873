import type { AblationStudy, StabilityStudy } from '../../scenarios/studies/index.js';
import { cellText } from '../markdown-cell.js';
import { dimensionLabel, fmtEstimate, num } from './markdown.js';

/** Said when every judgment was unscored or failed: an empty table would read as "no variance". */
export const emptyStability = (runId: string) => `No row: no judgment gave a score on any dimension (every one unscored or failed). The judges' raw answers are in the scenario report: paideia report ${runId} --format html --out report.html (add the --store of the study).`;

/** A judge study as Markdown: what was judged again, then its table. */
export function renderStudy(s: StabilityStudy | AblationStudy): string {
  const head = [`# Judge ${s.study} (run ${s.runId})`, '', `${s.judgments} judgment(s); ${s.failed} judge call(s) failed, ${s.pending} left to do.`, ''];
  if (s.study === 'stability') {
    return [
      ...head,
      `Each dialogue judged ${s.judgeRepeats} times by every judge. Variance: per dialogue the sample variance (n - 1) of a judge's repeats, averaged over dialogues; scores on [0, 1]${s.experts ? '; experts: the variance between the experts over the same dialogues' : '; no expert scores imported (paideia scenario import adds them)'}.`,
      '',
      '| judge | model | dimension | dialogues | repeats | variance | experts\' variance (dialogues) |',
      '|---|---|---|---|---|---|---|',
      ...s.rows.map(r => `| ${cellText(r.judge)} | ${cellText(r.model)} | ${cellText(dimensionLabel(r.dimension))} | ${r.dialogues} | ${num(r.repeats, 1)} | ${num(r.variance, 5)} | ${num(r.expertVariance, 5)} (${r.expertDialogues}) |`),
      ...(s.rows.length === 0 && s.judgments > 0 ? ['', emptyStability(s.runId)] : []),
    ].join('\n') + '\n';
  }
  const lines = [
    ...head,
    '| variant | version | judgments | mean score [95%] |', '|---|---|---|---|',
    ...s.variants.map(v => `| ${v.variant} | ${v.version} | ${v.judgments} | ${fmtEstimate(v.score)} |`),
  ];
  if (!s.experts) lines.push('', 'No expert scores imported: agreement needs them (paideia scenario export, then paideia scenario import).');
  else {
    lines.push(
      '', 'Against the experts\' mean per dialogue, on [0, 1]; intervals 95% (bootstrap for deviations, ICC(2,1) F-based).', '',
      '| variant | dimension | n | mean judge - expert | mean abs deviation | Kendall tau-b (p) | ICC(2,1) [95%] |', '|---|---|---|---|---|---|---|',
      ...s.rows.map(r => `| ${r.variant} | ${cellText(dimensionLabel(r.dimension))} | ${r.n} | ${fmtEstimate(r.meanDeviation)} | ${fmtEstimate(r.meanAbsDeviation)} | ${num(r.kendallTauB)} (${num(r.kendallP, 4)}) | ${num(r.icc)} [${num(r.iccLow)}, ${num(r.iccHigh)}] |`),
    );
  }
  return lines.join('\n') + '\n';
}
