import { stripControl } from '../core/index.js';
import type { Cell, ReportData, ReportRow } from './data.js';
import { fixed as num, points as pct, signedPoints as signed } from './format.js';
import { cellText } from './markdown-cell.js';

function score(c: Pick<Cell, 'mean' | 'low' | 'high' | 'n'> & { failed?: number } | undefined): string {
  if (!c || c.mean === null) return '–';
  return `${pct(c.mean)} [${pct(c.low)}, ${pct(c.high)}] n=${c.n}${c.failed ? ` (failed ${c.failed})` : ''}`;
}

const cellAt = (d: ReportData, model: string, row: Pick<ReportRow, 'test' | 'language'>) =>
  d.cells.find(c => c.model === model && c.test === row.test && c.language === row.language);

function comparisons(d: ReportData): string[] {
  const shown = d.rows.flatMap(r => d.comparisons.filter(c => c.test === r.test && c.language === r.language).map(c => ({ c, label: r.label })));
  if (!shown.length) return [];
  return [
    '## Comparisons', '',
    `Paired bootstrap over the items both models answered (${d.interval.resamples} resamples, seed ${d.interval.seed}); difference A − B in points.`, '',
    '| test | A | B | n | difference [95% CI] | note |', '|---|---|---|---|---|---|',
    ...shown.map(({ c, label }) => `| ${cellText(label)} | ${cellText(c.a)} | ${cellText(c.b)}${c.kind === 'vs-copy' ? ' (baseline)' : ''} | ${c.n} | ${signed(c.difference)} [${signed(c.low)}, ${signed(c.high)}] | ${c.warning ? cellText(c.warning) : ''} |`), '',
  ];
}

function explanations(d: ReportData): string[] {
  const x = d.explanations;
  if (!x) return [];
  const a = x.agreement;
  return [
    `## Explanations (${cellText(x.test)})`, '',
    `Judged apart from the headline score by ${x.judges.map(j => `${cellText(j.alias)} (${cellText(j.spec)}, family ${cellText(j.family)})`).join(' and ')}; ` +
      `an explanation passes only when both judges pass it. Rubric ${cellText(String(x.scorer.args.rubric))}; scorer ${cellText(x.scorer.name)} v${cellText(x.scorer.version)}.`, '',
    '| model | explanation score | judged | passed | not applicable | no explanation | unscored | pending | note |', '|---|---|---|---|---|---|---|---|---|',
    ...x.cells.map(c => `| ${cellText(c.model)} | ${score(c)} | ${c.counts.judged} | ${c.passed} | ${c.counts['not-applicable']} | ${c.counts['no-explanation']} | ${c.counts.unscored} | ${c.counts.pending} | ${c.note ? cellText(c.note) : ''} |`), '',
    `Judges' agreement: ${a.agreement === null ? '–' : `${pct(a.agreement)}%`} over ${a.n} explanations both judged; Cohen's kappa ${num(a.kappa)} ` +
      `(both pass ${a.table.bothPass}, both fail ${a.table.bothFail}, only ${cellText(a.judges[0])} passes ${a.table.onlyFirst}, only ${cellText(a.judges[1])} passes ${a.table.onlySecond}).`, '',
    '| model | explanations both judged | agreement | kappa |', '|---|---|---|---|',
    ...x.agreementByModel.map(m => `| ${cellText(m.model)} | ${m.n} | ${pct(m.agreement)} | ${num(m.kappa)} |`), '',
    ...(x.examples.length ? [
      '### Failed explanations (public items only)', '', '| model | item | answer | why |', '|---|---|---|---|',
      ...x.examples.map(e => `| ${cellText(e.model)} | ${cellText(e.itemId)} | ${cellText(e.answer)} | ${cellText(e.reason)} |`), '',
    ] : []),
  ];
}

function failures(d: ReportData): string[] {
  return [
    '## Failures', '',
    'Why trials failed: the stored error of each failed trial (the newest record of the step that failed), grouped by message per model and test. Failed trials are counted apart and never scored as wrong; `--retry-errors` runs them again.', '',
    ...(d.trialFailures.length ? [
      '| model | test | trials | HTTP status | kind | message | example trial |', '|---|---|---|---|---|---|---|',
      ...d.trialFailures.map(f => `| ${cellText(f.model)} | ${cellText(f.test)} | ${f.count} | ${f.statusCode ?? '–'} | ${cellText(f.kind ?? '–')} | ${cellText(f.message)} | ${cellText(f.exampleTrialId)} |`),
    ] : ['No trial failed.']), '',
  ];
}

/** The report as Markdown tables, for READMEs and papers. Every text from a model, judge or server goes through cellText. */
export function renderMarkdown(d: ReportData): string {
  const names = d.models.map(m => `${cellText(m.alias)}${m.isBaseline ? ' (baseline)' : ''}`);
  const splitTests = d.rows.filter(r => r.language !== null).map(r => r.test).filter((t, i, all) => all.indexOf(t) === i);
  const judgesUnpriced = d.explanations?.judges.some(j => d.unpriced.includes(j.spec)) ?? false;
  const lines = [
    `# Paideia report ${cellText(d.runId)}`, '',
    `Status ${d.status}; ${d.config.repeats} repeat(s); seed ${d.config.seed}; max_tokens ${d.config.params.maxTokens ?? d.config.maxTokens ?? 'not sent'}; scores in % with 95% ${d.interval.method} intervals over items (${d.interval.resamples} resamples).`, '',
    `| test | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`,
    ...d.rows.map(r => `| ${cellText(r.label)} | ${d.models.map(m => score(cellAt(d, m.alias, r))).join(' | ')} |`), '',
    ...(splitTests.length ? [`${cellText(splitTests.join(', '))}: the items span several languages, so each language has its own row, n and interval (no pooled score).`, ''] : []),
    '## Consistency', '', 'Share of items with the same result in every repeat (%).', '',
    `| test | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`,
    ...d.rows.map(r => `| ${cellText(r.label)} | ${d.models.map(m => { const c = cellAt(d, m.alias, r)?.consistency; return pct(c); }).join(' | ')} |`), '',
    ...comparisons(d),
    ...explanations(d),
    '## Cost', '',
    ...(d.unpriced.length ? [`No price in the run's price table for ${d.unpriced.map(cellText).join(', ')}: their cost is unknown (not $0) and the run total leaves it out.`, ''] : []),
    ...d.models.filter(m => m.unpricedReason).flatMap(m => [`- ${cellText(m.alias)}: ${cellText(m.unpricedReason!)}`]),
    ...(d.models.some(m => m.unpricedReason) ? [''] : []),
    '| model | cost (USD) | per correct | failed |', '|---|---|---|---|',
    ...d.models.map(m => `| ${cellText(m.alias)} | ${m.priced ? num(m.costUsd, 4) : 'unknown'} | ${m.priced ? num(m.costPerCorrect, 5) : 'unknown'} | ${m.failed} |`),
    ...(d.explanations ? [`| judges | ${judgesUnpriced ? 'unknown' : num(d.explanations.costUsd, 4)} | – | – |`] : []),
    `| **run total** | ${num(d.totalCostUsd, 4)}${d.unpriced.length ? ' + unknown' : ''} | | |`, '',
    ...failures(d),
    '## Groups', '', '| model | test | group | value | score | note |', '|---|---|---|---|---|---|',
    ...d.groups.map(g => `| ${cellText(g.model)} | ${cellText(g.test)} | ${cellText(g.field)} | ${cellText(g.value)} | ${score(g)} | ${g.small ? 'small group' : ''} |`), '',
    '## Failure examples (public items only)', '', '| model | test | item | expected | answer | score | why |', '|---|---|---|---|---|---|---|',
    ...d.failures.map(f => `| ${cellText(f.model)} | ${cellText(f.test)} | ${cellText(f.itemId)} | ${cellText(f.expected.join(' / '))} | ${cellText(f.answer)} | ${pct(f.value)} | ${cellText(f.reason)} |`), '',
  ];
  return lines.join('\n');
}
