import { cellText } from '../markdown-cell.js';
import { num, pValue, tauText } from '../validity/format.js';
import type { LearningJudgeValidity } from './alignment.js';

/** Text shown as code, as written (a command to paste): fenced by more backticks than any run of them inside. */
function codeSpan(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map(r => r.length)) + 1);
  return `${fence}${fence.length > 1 ? ' ' : ''}${text}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/** The alignment section of the learning report in Markdown (the HTML page converts it, so both carry the same numbers). */
export function alignmentMarkdown(v: LearningJudgeValidity, runId: string, analyzeCommand?: string): string[] {
  // No judgment: no method to state (no resampling ran), only why.
  if (v.alignment.length === 0) {
    return ['', "## Do the judges' ratings track learner gain?", '', `Outcome: ${v.outcome}. ${v.decksWithGain} of ${v.decks} deck(s) have a gain.`, '', ...v.notes.map(n => `- ${n}`)];
  }
  const out = ['', "## Do the judges' ratings track learner gain?", '',
    `Outcome: ${v.outcome}. Each judge's rating of a deck (the mean of its sub-dimensions, then of its repeats) against the deck's gain: Kendall tau-b with percentile-bootstrap intervals over decks (${v.resamples} resamples, seed ${v.seed}), its p-value, the permutation p-value (${v.resamples} shuffles of the ratings) and Pearson r. Tau needs at least ${v.minimumDecks} decks with both a rating and a gain; ${v.decksWithGain} of ${v.decks} deck(s) have a gain. The full analysis: ${analyzeCommand === undefined ? `paideia validity analyze --run ${cellText(runId)}` : codeSpan(analyzeCommand)}.`, ''];
  out.push(...v.notes.map(n => `- ${n}`));
  out.push('', '| judge | prompt | item | decks (n) | unscored | tau-b with gain (90% / 95%) | p | permutation p | Pearson r | tau-b with experts |', '|---|---|---|---|---|---|---|---|---|---|',
    ...v.alignment.map(a => `| ${cellText(a.judge)} | ${cellText(a.prompt)} | ${a.item.toUpperCase()} | ${a.n} | ${a.unscored}/${a.ratings} | ${tauText(a.tauOutcome)} | ${pValue(a.tauOutcome?.pValue)} | ${pValue(a.permutationOutcome?.pValue)} | ${num(a.pearsonOutcome?.r)} | ${tauText(a.tauExperts)} |`));
  if (v.d3.length) {
    out.push('', 'D3 deck measurements on the same axis (no judge: baselines):', '', '| D3 metric | tau-b with gain (90% / 95%) | p | Pearson r |', '|---|---|---|---|',
      ...v.d3.map(d => `| ${cellText(d.metric)} | ${tauText(d.tauOutcome)} | ${pValue(d.tauOutcome?.pValue)} | ${num(d.pearsonOutcome?.r)} |`));
  }
  return out;
}
