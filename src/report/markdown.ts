import type { Cell, ReportData } from './data.js';

const pct = (x: number | null) => (x === null ? '–' : (x * 100).toFixed(1));
// Model text may hold pipes and newlines that would break a Markdown table.
const cellText = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/</g, '&lt;');

function score(c: Pick<Cell, 'mean' | 'low' | 'high' | 'n'> & { failed?: number } | undefined): string {
  if (!c || c.mean === null) return '–';
  return `${pct(c.mean)} [${pct(c.low)}, ${pct(c.high)}] n=${c.n}${c.failed ? ` (failed ${c.failed})` : ''}`;
}

const signed = (x: number | null) => (x === null ? '–' : `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`);
const num = (x: number | null, digits = 3) => (x === null ? '–' : x.toFixed(digits));

function comparisons(d: ReportData): string[] {
  if (!d.comparisons.length) return [];
  return [
    '## Comparisons', '',
    `Paired bootstrap over the items both models answered (${d.interval.resamples} resamples, seed ${d.interval.seed}); difference A − B in points.`, '',
    '| test | A | B | n | difference [95% CI] | note |', '|---|---|---|---|---|---|',
    ...d.comparisons.map(c => `| ${c.test} | ${cellText(c.a)} | ${cellText(c.b)}${c.kind === 'vs-copy' ? ' (baseline)' : ''} | ${c.n} | ${signed(c.difference)} [${signed(c.low)}, ${signed(c.high)}] | ${c.warning ? cellText(c.warning) : ''} |`), '',
  ];
}

function explanations(d: ReportData): string[] {
  const x = d.explanations;
  if (!x) return [];
  const a = x.agreement;
  return [
    `## Explanations (${x.test})`, '',
    `Judged apart from the headline score by ${x.judges.map(j => `${cellText(j.alias)} (${cellText(j.spec)}, family ${cellText(j.family)})`).join(' and ')}; ` +
      `an explanation passes only when both judges pass it. Rubric ${x.scorer.args.rubric as string}; scorer ${x.scorer.name} v${x.scorer.version}.`, '',
    '| model | explanation score | judged | passed | not applicable | no explanation | unscored | pending | note |', '|---|---|---|---|---|---|---|---|---|',
    ...x.cells.map(c => `| ${cellText(c.model)} | ${score(c)} | ${c.counts.judged} | ${c.passed} | ${c.counts['not-applicable']} | ${c.counts['no-explanation']} | ${c.counts.unscored} | ${c.counts.pending} | ${c.note ? cellText(c.note) : ''} |`), '',
    `Judges' agreement: ${a.agreement === null ? '–' : `${pct(a.agreement)}%`} over ${a.n} explanations both judged; Cohen's kappa ${num(a.kappa)} ` +
      `(both pass ${a.table.bothPass}, both fail ${a.table.bothFail}, only ${cellText(a.judges[0])} passes ${a.table.onlyFirst}, only ${cellText(a.judges[1])} passes ${a.table.onlySecond}).`, '',
    '| model | explanations both judged | agreement | kappa |', '|---|---|---|---|',
    ...x.agreementByModel.map(m => `| ${cellText(m.model)} | ${m.n} | ${m.agreement === null ? '–' : pct(m.agreement)} | ${num(m.kappa)} |`), '',
    ...(x.examples.length ? [
      '### Failed explanations (public items only)', '', '| model | item | why |', '|---|---|---|',
      ...x.examples.map(e => `| ${cellText(e.model)} | ${cellText(e.itemId)} | ${cellText(e.reason)} |`), '',
    ] : []),
  ];
}

/** The report as Markdown tables, for READMEs and papers. */
export function renderMarkdown(d: ReportData): string {
  const cellOf = (m: string, t: string) => d.cells.find(c => c.model === m && c.test === t);
  const names = d.models.map(m => `${cellText(m.alias)}${m.isBaseline ? ' (baseline)' : ''}`);
  const lines = [
    `# Paideia report ${d.runId}`, '',
    `Status ${d.status}; ${d.config.repeats} repeat(s); seed ${d.config.seed}; scores in % with 95% ${d.interval.method} intervals over items (${d.interval.resamples} resamples).`, '',
    `| test | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`,
    ...d.tests.map(t => `| ${cellText(t.name)} | ${d.models.map(m => score(cellOf(m.alias, t.name))).join(' | ')} |`), '',
    '## Consistency', '', 'Share of items with the same result in every repeat (%).', '',
    `| test | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`,
    ...d.tests.map(t => `| ${cellText(t.name)} | ${d.models.map(m => { const c = cellOf(m.alias, t.name)?.consistency; return c === undefined || c === null ? '–' : pct(c); }).join(' | ')} |`), '',
    ...comparisons(d),
    ...explanations(d),
    '## Cost', '', '| model | cost (USD) | per correct | failed |', '|---|---|---|---|',
    ...d.models.map(m => `| ${cellText(m.alias)} | ${m.costUsd.toFixed(4)} | ${m.costPerCorrect === null ? '–' : m.costPerCorrect.toFixed(5)} | ${m.failed} |`),
    ...(d.explanations ? [`| judges | ${d.explanations.costUsd.toFixed(4)} | – | – |`] : []),
    `| **run total** | ${d.totalCostUsd.toFixed(4)} | | |`, '',
    '## Groups', '', '| model | test | group | value | score | note |', '|---|---|---|---|---|---|',
    ...d.groups.map(g => `| ${cellText(g.model)} | ${g.test} | ${g.field} | ${cellText(g.value)} | ${score(g)} | ${g.small ? 'small group' : ''} |`), '',
    '## Failure examples (public items only)', '', '| model | test | item | expected | answer | score |', '|---|---|---|---|---|---|',
    ...d.failures.map(f => `| ${cellText(f.model)} | ${f.test} | ${cellText(f.itemId)} | ${cellText(f.expected.join(' / '))} | ${cellText(f.answer)} | ${pct(f.value)} |`), '',
  ];
  return lines.join('\n');
}
