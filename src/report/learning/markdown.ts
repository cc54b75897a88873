import type { Figure, LearningReport } from '../../learning/report/index.js';
import { cellText } from '../markdown-cell.js';
import { fixed } from '../format.js';
import type { LearningJudgeValidity } from './alignment.js';
import { alignmentMarkdown } from './alignment-markdown.js';

/** `mean [low, high] (n)`, or a dash when there is no value. */
export function figureText(f: Figure, digits = 3): string {
  if (f.mean === null) return `– (n=${f.n})`;
  const ci = f.low !== null && f.high !== null ? ` [${fixed(f.low, digits)}, ${fixed(f.high, digits)}]` : '';
  return `${fixed(f.mean, digits)}${ci} (n=${f.n})`;
}

const fin = (x: number) => (Number.isFinite(x) ? fixed(x) : '–');
const p = (x: number | null) => (x === null ? '–' : x < 0.001 ? x.toExponential(2) : x.toFixed(3));

/** The learning report as Markdown: the main table, correlations, the judges' alignment with gain, error injection and ablations. */
export function renderLearningMarkdown(r: LearningReport, validity?: LearningJudgeValidity, analyzeCommand?: string): string {
  const out: string[] = [
    `# Learning study ${cellText(r.runId)}`, '',
    `Units: ${r.units.map(cellText).join(', ')}. Figures are means over units with 95% percentile-bootstrap intervals over units (${r.intervals.resamples} resamples, seed ${r.intervals.seed}); n counts units. Shares of items right; gain = post - pre.`, '',
    '## Per generator', '',
    '| generator | pre | post | gain | near | far | D1 | D2 | D3 slides | D3 words/slide | failed decks |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(r.generators).map(([name, g]) => `| ${cellText(name)}${g.baseline ? ' (baseline)' : ''} | ${[g.pre, g.post, g.gain, g.near, g.far, g.d1, g.d2, g.d3.slides, g.d3.wordsPerSlide].map(f => figureText(f)).join(' | ')} | ${g.failedGenerations} |`),
    '', '## Do the judges track learning?', '',
    '| dimension | over | n | Spearman rho | p | Kendall tau-b | p |', '|---|---|---|---|---|---|---|',
    ...Object.entries(r.correlations).flatMap(([dim, c]) => (['generators', 'decks'] as const).map(over => {
      const x = c[over];
      return `| ${dim.toUpperCase()} vs gain | ${over} | ${x.n} | ${fixed(x.spearman.rho)} | ${p(x.spearman.pValue)} | ${fixed(x.kendall.tau)} | ${p(x.kendall.pValue)} |`;
    })),
    ...(validity ? alignmentMarkdown(validity, r.runId, analyzeCommand) : []),
  ];
  const { variants, families } = r.errorInjection;
  if (variants.length) {
    out.push('', '## Error injection', '', 'Drop = deck as generated - injected variant, paired by deck (unit x generator); negative: the error raised it. D3 here is the share of requested visual aids present.', '',
      '| variant | family | decks changed | unchanged (nothing to change) |', '|---|---|---|---|',
      ...variants.map(v => `| ${cellText(v.kind)} | ${v.family} | ${v.changed} | ${v.unchanged} |`),
      '', '| family | dimension | targeted | n | mean drop [95% CI] | t | p | d_z |', '|---|---|---|---|---|---|---|---|');
    for (const f of families) {
      for (const d of f.dimensions) {
        const ci = Number.isFinite(d.low) ? ` [${fixed(d.low)}, ${fixed(d.high)}]` : '';
        out.push(`| ${f.family} | ${d.dimension} | ${d.targeted ? 'yes' : 'no'} | ${d.n} | ${Number.isFinite(d.meanDrop) ? fixed(d.meanDrop) : '–'}${ci} | ${fin(d.t)} | ${p(Number.isFinite(d.pValue) ? d.pValue : null)} | ${fin(d.dz)} |`);
      }
    }
  }
  out.push('', '## Ablations', '', '### Learners', '', '| learner | generator | pre | post | gain | near | far |', '|---|---|---|---|---|---|---|',
    ...r.ablations.learners.map(l => `| ${cellText(l.learner)}${l.baseline ? ' (baseline)' : ''} | ${cellText(l.generator)} | ${[l.pre, l.post, l.gain, l.near, l.far].map(f => figureText(f)).join(' | ')} |`));
  if (r.ablations.puzzleContext.length > 1) {
    out.push('', '### Puzzle context', '', '| context | pre | post | gain | near | far |', '|---|---|---|---|---|---|',
      ...r.ablations.puzzleContext.map(c => `| ${c.puzzleContext ? 'on' : 'off'} | ${[c.pre, c.post, c.gain, c.near, c.far].map(f => figureText(f)).join(' | ')} |`));
  }
  if (r.ablations.frames.length > 1) {
    out.push('', '### Frames studied', '', '| frames | pre | post | gain | near | far |', '|---|---|---|---|---|---|',
      ...r.ablations.frames.map(c => `| ${c.frames} | ${[c.pre, c.post, c.gain, c.near, c.far].map(f => figureText(f)).join(' | ')} |`));
  }
  out.push('', `Failures (not marked wrong): ${r.failures.learnerTrials} learner trial(s) failed; ${r.failures.judgments} judgment(s) unscored.`, '');
  return out.join('\n');
}
