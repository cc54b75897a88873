import { escapeHtml as e } from '../../core/escape.js';
import type { ValidityReport } from '../../validity/index.js';
import { num, pValue, tauText, type ValidityFormat } from './format.js';
import { table as htmlTable } from './html.js';
import { table as markdownTable } from './markdown.js';

/** What a run's report says about its judges: their alignment with attached experts, or that none are attached. */
export type JudgeValidity = (
  | { experts: string; report: ValidityReport; /** The full analysis of the same files, ready to paste (it names the store). */ analyzeCommand: string }
  | { experts: null; howToAttach: string }
) & {
  /** A suite or scenario run measures no outcome of its own: how to set its judges against one. */
  howToAddOutcomes: string;
};

const HEAD = ['judge', 'prompt', 'item', 'n', 'unscored', 'tau-b with experts (90% / 95%)', 'p', 'Pearson r'];

function rows(r: ValidityReport): unknown[][] {
  return r.alignment.map(a => [a.rater, a.prompt, a.item, a.n, `${a.unscored}/${a.ratings}`, tauText(a.tauExperts), pValue(a.tauExperts?.pValue), num(a.pearsonExperts?.r)]);
}

/**
 * A run's report (suite or scenario) with its judges' alignment beside the judged scores: the
 * alignment rows of the validity analysis (the same numbers `paideia validity analyze --run`
 * gives), or a plain statement that no expert scores are attached. JSON gains a `judgeValidity` key.
 */
export function withJudgeValidity(text: string, format: ValidityFormat, v: JudgeValidity): string {
  if (format === 'json') {
    const data = JSON.parse(text) as Record<string, unknown>;
    const outcomeNote = `no outcome attached; ${v.howToAddOutcomes}`;
    const value = v.experts === null ? { experts: null, note: `no expert scores attached; ${v.howToAttach}`, outcomeNote } : { experts: v.experts, ...v.report, outcomeNote };
    return `${JSON.stringify({ ...data, judgeValidity: value }, (_, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? null : x), 2)}\n`;
  }
  const intro = v.experts === null
    ? `No expert scores are attached, so the judges' alignment with experts is unknown; ${v.howToAttach}.`
    : `Judges against the expert scores in ${v.experts}: Kendall tau-b of each judge's score (mean over repeats) with the experts' mean per observation, percentile bootstrap intervals (${v.report.resamples} resamples, seed ${v.report.seed}). The full analysis: ${v.analyzeCommand}`;
  const outcome = `No outcome (e.g. a learning gain) is attached to these judges, so their alignment with one is unknown; ${v.howToAddOutcomes}.`;
  // The analysis' own "no outcomes" note names a flag of validity analyze, not of this report.
  const notes = [outcome, ...(v.experts === null ? [] : v.report.notes.filter(n => !n.startsWith('No outcomes were given')))];
  if (format === 'md') {
    const table = v.experts === null ? '' : `${markdownTable(HEAD, rows(v.report))}\n`;
    return `${text.replace(/\n*$/, '\n')}\n## Judge validity\n\n${intro}\n\n${notes.map(n => `- ${n}\n`).join('')}${notes.length ? '\n' : ''}${table}`;
  }
  const table = v.experts === null ? '' : htmlTable(HEAD, rows(v.report));
  const section = `<section id="judge-validity"><h2>Judge validity</h2><p>${e(intro)}</p>${notes.length ? `<ul>${notes.map(n => `<li>${e(n)}</li>`).join('')}</ul>` : ''}${table}</section>\n`;
  const at = text.lastIndexOf('</body>');
  return at < 0 ? text + section : text.slice(0, at) + section + text.slice(at);
}
