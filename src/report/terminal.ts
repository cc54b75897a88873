import type { Cell, SummaryData } from './data.js';
import { textTable } from './text-table.js';

const pct = (x: number | null) => (x === null ? '–' : (x * 100).toFixed(1));
const usd = (x: number) => `$${x > 0 && x < 0.01 ? x.toFixed(5) : x.toFixed(4)}`;

function scoreColumns(c: Cell): [string, string, string, string] {
  if (c.mean === null) return ['–', '', String(c.n), c.failed ? `${c.failed} failed` : 'no scores'];
  return [`${pct(c.mean)}%`, `[${pct(c.low)}, ${pct(c.high)}]`, String(c.n), c.failed ? `${c.failed} failed` : ''];
}

/**
 * The score table a run ends with in the terminal, from the same report data as the HTML report:
 * one line per model and test (or test language), mean with its 95% interval over items, n and
 * cost ("unknown" when the model has no price), then the run total.
 */
export function renderTerminalSummary(d: SummaryData): string {
  // A test a model was not run on (a baseline without what it needs) has no line: it is compact.
  const rows = d.models.flatMap(m => d.rows.flatMap(r => {
    const c = d.cells.find(x => x.model === m.alias && x.test === r.test && x.language === r.language);
    if (!c) return [];
    const [mean, ci, n, note] = scoreColumns(c);
    const cost = m.priced && c.costUsd !== null ? usd(c.costUsd) : 'unknown';
    return [[`${m.alias}${m.isBaseline ? ' (baseline)' : ''}`, r.label, mean, ci, n, cost, note]];
  }));
  const table = textTable(['model', 'test', 'mean', '95% CI', 'n', 'cost', ''], rows, ['left', 'left', 'right', 'left', 'right', 'right']);
  const total = `total cost ${usd(d.totalCostUsd)}${d.unpriced.length ? ` + unknown (no price for ${d.unpriced.join(', ')})` : ''}`;
  const how = `mean score per item in %, ${d.interval.level * 100}% ${d.interval.method} interval over items; n = scored items`;
  const why = d.models.filter(m => m.unpricedReason).map(m => `  ${m.alias === m.spec ? '' : `${m.alias}: `}${m.unpricedReason}\n`).join('');
  return `${table}${total}; ${how}\n${why}`;
}
