import type { Cell, ReportData } from './data.js';

const pct = (x: number | null) => (x === null ? '–' : (x * 100).toFixed(1));
// Model text may hold pipes and newlines that would break a Markdown table.
const cellText = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/</g, '&lt;');

function score(c: Cell | undefined): string {
  if (!c || c.mean === null) return '–';
  return `${pct(c.mean)} [${pct(c.low)}, ${pct(c.high)}] n=${c.n}${c.failed ? ` (failed ${c.failed})` : ''}`;
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
    '## Cost', '', '| model | cost (USD) | per correct | failed |', '|---|---|---|---|',
    ...d.models.map(m => `| ${cellText(m.alias)} | ${m.costUsd.toFixed(4)} | ${m.costPerCorrect === null ? '–' : m.costPerCorrect.toFixed(5)} | ${m.failed} |`), '',
    '## Groups', '', '| model | test | group | value | score | note |', '|---|---|---|---|---|---|',
    ...d.groups.map(g => `| ${cellText(g.model)} | ${g.test} | ${g.field} | ${cellText(g.value)} | ${score(g)} | ${g.small ? 'small group' : ''} |`), '',
    '## Failure examples (public items only)', '', '| model | test | item | expected | answer | score |', '|---|---|---|---|---|---|',
    ...d.failures.map(f => `| ${cellText(f.model)} | ${f.test} | ${cellText(f.itemId)} | ${cellText(f.expected.join(' / '))} | ${cellText(f.answer)} | ${pct(f.value)} |`), '',
  ];
  return lines.join('\n');
}
