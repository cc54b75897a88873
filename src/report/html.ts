import type { Cell, GroupCell, ReportData } from './data.js';
import { escapeHtml as e } from './escape.js';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}`);
const usd = (x: number | null) => (x === null ? '–' : `$${x < 0.01 && x > 0 ? x.toFixed(5) : x.toFixed(4)}`);

function scoreCell(c: Cell | undefined): string {
  if (!c) return '<td class="na">–</td>';
  if (c.mean === null) return `<td class="na">no scores<br><small>failed ${c.failed}, unscored ${c.unscored}</small></td>`;
  const extra = [c.failed ? `failed ${c.failed}` : '', c.unscored ? `unscored ${c.unscored}` : ''].filter(Boolean).join(', ');
  return `<td><b>${pct(c.mean)}</b> <span class="ci">[${pct(c.low)}, ${pct(c.high)}]</span><br><small>n=${c.n}${extra ? `; ${e(extra)}` : ''}</small></td>`;
}

/** Horizontal bars with 95% interval whiskers, one per model, as inline SVG (no script, no external file). */
function chart(test: string, rows: Array<{ label: string; cell: Cell | undefined; baseline: boolean }>): string {
  const w = 560, rowH = 22, left = 170, width = w - left - 20;
  const h = rows.length * rowH + 24;
  const x = (v: number) => left + v * width;
  const bars = rows.map((r, i) => {
    const y = 4 + i * rowH;
    const c = r.cell;
    const label = `<text x="${left - 6}" y="${y + 14}" text-anchor="end">${e(r.label)}${r.baseline ? ' (baseline)' : ''}</text>`;
    if (!c || c.mean === null) return label;
    const bar = `<rect x="${left}" y="${y + 3}" width="${(c.mean * width).toFixed(1)}" height="${rowH - 8}" class="${r.baseline ? 'bb' : 'bm'}"/>`;
    const whisker = c.low === null || c.high === null ? '' :
      `<line x1="${x(c.low).toFixed(1)}" x2="${x(c.high).toFixed(1)}" y1="${y + 11}" y2="${y + 11}" class="wh"/>` +
      `<line x1="${x(c.low).toFixed(1)}" x2="${x(c.low).toFixed(1)}" y1="${y + 6}" y2="${y + 16}" class="wh"/>` +
      `<line x1="${x(c.high).toFixed(1)}" x2="${x(c.high).toFixed(1)}" y1="${y + 6}" y2="${y + 16}" class="wh"/>`;
    return label + bar + whisker;
  }).join('');
  const axis = [0, 0.25, 0.5, 0.75, 1].map(v => `<line x1="${x(v)}" x2="${x(v)}" y1="2" y2="${h - 18}" class="grid"/><text x="${x(v)}" y="${h - 4}" text-anchor="middle">${v * 100}</text>`).join('');
  return `<svg role="img" aria-label="${e(test)} scores with 95% intervals" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">${axis}${bars}</svg>`;
}

function groupTable(gs: GroupCell[]): string {
  if (!gs.length) return '<p class="na">No group fields on these items.</p>';
  const rows = gs.map(g => `<tr${g.small ? ' class="small"' : ''}><td>${e(g.field)}</td><td>${e(g.value)}</td>${scoreCell(g)}<td>${g.small ? 'small group (n &lt; 10)' : ''}</td></tr>`).join('');
  return `<table><thead><tr><th>group</th><th>value</th><th>score [95% CI]</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * A self-contained HTML report: no script at all and a Content-Security-Policy that forbids one,
 * so text from a model can never run, and every such string is escaped as well.
 */
export function renderHtml(d: ReportData): string {
  const cellOf = (model: string, test: string) => d.cells.find(c => c.model === model && c.test === test);
  const header = d.models.map(m => `<th>${e(m.alias)}${m.isBaseline ? '<br><span class="tag">baseline</span>' : ''}</th>`).join('');
  const summary = d.tests.map(t => `<tr><th>${e(t.name)}</th>${d.models.map(m => scoreCell(cellOf(m.alias, t.name))).join('')}</tr>`).join('');
  const charts = d.tests.map(t => `<figure><figcaption>${e(t.name)}</figcaption>${chart(t.name, d.models.map(m => ({ label: m.alias, cell: cellOf(m.alias, t.name), baseline: m.isBaseline })))}</figure>`).join('');
  const costs = d.models.map(m => `<tr><td>${e(m.alias)}${m.isBaseline ? ' <span class="tag">baseline</span>' : ''}</td><td>${e(m.spec)}</td><td>${usd(m.costUsd)}</td><td>${usd(m.costPerCorrect)}</td><td>${m.failed}</td></tr>`).join('');
  const modelPages = d.models.map(m => {
    const tests = d.tests.map(t => {
      const gs = d.groups.filter(g => g.model === m.alias && g.test === t.name);
      const fails = d.failures.filter(f => f.model === m.alias && f.test === t.name);
      const ex = fails.length ? `<table class="ex"><thead><tr><th>item</th><th>input</th><th>expected</th><th>answer</th><th>score</th><th>why</th></tr></thead><tbody>${fails.map(f => `<tr><td>${e(f.itemId)}</td><td><pre>${e(JSON.stringify(f.input, null, 1))}</pre></td><td>${e(f.expected.join(' | '))}</td><td><pre>${e(f.answer)}</pre></td><td>${pct(f.value)}</td><td>${e(f.reason)}</td></tr>`).join('')}</tbody></table>` : '<p class="na">No failures on public items.</p>';
      const c = cellOf(m.alias, t.name);
      return `<h4>${e(t.name)}</h4><p>${c ? `score ${pct(c.mean)} [${pct(c.low)}, ${pct(c.high)}], n=${c.n}, trials ${c.trials}, consistency ${c.consistency === null ? '–' : pct(c.consistency) + '%'}` : 'not run'}</p>${groupTable(gs)}<h5>Failure examples (public items only)</h5>${ex}`;
    }).join('');
    return `<section class="model"><h3>${e(m.alias)}${m.isBaseline ? ' <span class="tag">baseline</span>' : ''}</h3><p>${e(m.spec)}</p>${tests}</section>`;
  }).join('');
  const scorers = d.tests.map(t => `<li><b>${e(t.name)}</b>: ${e(t.description)} Scorer: ${t.scorer ? `${e(t.scorer.name)} v${e(t.scorer.version)} ${e(JSON.stringify(t.scorer.args))}` : '–'}</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paideia report ${e(d.runId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d2330}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #d5d9e0;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f3f5f8}.ci{color:#5a6270}.na{color:#8a919c}.tag{background:#e8ecf3;border-radius:3px;padding:0 .3rem;font-size:11px;color:#445}
tr.small td{color:#7a5d00}pre{white-space:pre-wrap;word-break:break-word;margin:0;max-width:28rem;font-size:12px}
svg text{font-size:11px;fill:#333}.bm{fill:#4a78c2}.bb{fill:#b9c2cf}.wh{stroke:#111;stroke-width:1.4}.grid{stroke:#e4e7ec}
figure{display:inline-block;margin:0 1rem 1rem 0}figcaption{font-weight:600}section.model{border-top:2px solid #d5d9e0;margin-top:1.5rem}
</style></head><body>
<h1>Paideia report</h1>
<p>Run <code>${e(d.runId)}</code> · status <b>${e(d.status)}</b> · ${d.config.repeats} repeat(s) · seed ${d.config.seed} · suites ${e(d.config.suites.join(', '))} · generated ${e(d.generatedAt)}</p>
<h2>Scores</h2>
<p>Mean score per item (in %; an item's score is the mean of its repeats) with a 95% ${d.interval.method} interval over items (${d.interval.resamples} resamples, seed ${d.interval.seed}) and n, the number of scored items. Failed calls are counted apart and never scored as wrong; unscored answers are excluded from means. Baselines mark the floor and the ceiling.</p>
<table><thead><tr><th>test</th>${header}</tr></thead><tbody>${summary}</tbody></table>
${charts}
<h2>Cost</h2>
<p>Prices from ${e(d.prices.source)} (read ${e(d.prices.date)}), stored with the run.</p>
<table><thead><tr><th>model</th><th>spec</th><th>cost</th><th>cost per correct answer</th><th>failed trials</th></tr></thead><tbody>${costs}</tbody></table>
<h2>Models</h2>
${modelPages}
<h2>Methods</h2><ul>${scorers}</ul>
</body></html>
`;
}
