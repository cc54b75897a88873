import type { Cell, GroupCell, ReportData, ReportRow } from './data.js';
import { escapeHtml as e } from '../core/escape.js';
import { pageHead } from './page.js';
import { dollars as usd, fixed, points as pct, signedPoints as signed } from './format.js';
import { groupPlots } from './group-plot.js';
import { explanationExamplesHtml, failureExamplesHtml } from './html-examples.js';

/** The id of a model's section, for links: the alias with anything but letters, digits, - and _ written as _hex, so two aliases never share one. */
export const modelAnchor = (alias: string) => `model-${alias.replace(/[^\w-]/g, c => `_${c.codePointAt(0)!.toString(16)}`)}`;

const UNKNOWN = '<span class="warn" title="no price for this model in the run\'s price table">unknown</span>';

function scoreCell(c: Cell | undefined): string {
  if (!c) return '<td class="na" title="no trials: this model cannot answer this test (a baseline without what it needs) or was not asked">n/a</td>';
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
  // The plots show the pattern; the table below keeps the exact numbers.
  const rows = gs.map(g => `<tr${g.small ? ' class="small"' : ''}><td>${e(g.field)}</td><td>${e(g.value)}</td>${scoreCell(g)}<td>${g.small ? 'small group (n &lt; 10)' : ''}</td></tr>`).join('');
  return `${groupPlots(gs)}<table><thead><tr><th>group</th><th>value</th><th>score [95% CI]</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

const cellAt = (d: ReportData, model: string, row: Pick<ReportRow, 'test' | 'language'>) =>
  d.cells.find(c => c.model === model && c.test === row.test && c.language === row.language);

function consistencyTable(d: ReportData): string {
  const head = d.models.map(m => `<th>${e(m.alias)}</th>`).join('');
  const rows = d.rows.map(r => `<tr><th>${e(r.label)}</th>${d.models.map(m => {
    const c = cellAt(d, m.alias, r)?.consistency;
    return `<td>${c === undefined || c === null ? '–' : `${pct(c)}%`}</td>`;
  }).join('')}</tr>`).join('');
  return `<h2>Consistency</h2><p>Share of items with the same result in every repeat (with one repeat there is nothing to compare: –).</p><table><thead><tr><th>test</th>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function comparisonTable(d: ReportData): string {
  // One block per score-table row: a test spanning several languages is compared per language.
  const shown = d.rows.flatMap(r => d.comparisons.filter(c => c.test === r.test && c.language === r.language).map(c => ({ c, label: r.label })));
  if (!shown.length) return '';
  const rows = shown.map(({ c, label }) => `<tr><td>${e(label)}</td><td>${e(c.a)}</td><td>${e(c.b)}${c.kind === 'vs-copy' ? ' <span class="tag">baseline</span>' : ''}</td><td>${c.n}</td><td><b>${signed(c.difference)}</b> <span class="ci">[${signed(c.low)}, ${signed(c.high)}]</span></td><td>${c.warning ? `<span class="warn">${e(c.warning)}</span>` : ''}</td></tr>`).join('');
  return `<h2>Comparisons</h2><p>Difference A − B in points, with a 95% paired bootstrap interval over the items both models answered (${d.interval.resamples} resamples, seed ${d.interval.seed}). Models under test are compared pairwise, and each against the copy baseline when the run has it.</p>` +
    `<table><thead><tr><th>test</th><th>A</th><th>B</th><th>n</th><th>difference [95% CI]</th><th>note</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function explanationSection(d: ReportData): string {
  const x = d.explanations;
  if (!x) return '';
  const judges = x.judges.map(j => `${e(j.alias)} (<code>${e(j.spec)}</code>, family ${e(j.family)})`).join(' and ');
  const rows = x.cells.map(c => {
    const sc = c.mean === null ? `<td class="na">${e(c.note ?? 'no score')}</td>` : `<td><b>${pct(c.mean)}</b> <span class="ci">[${pct(c.low)}, ${pct(c.high)}]</span><br><small>n=${c.n}</small></td>`;
    return `<tr><td>${e(c.model)}</td>${sc}<td>${c.counts.judged}</td><td>${c.passed}</td><td>${c.counts['not-applicable']}</td><td>${c.counts['no-explanation']}</td><td>${c.counts.unscored}</td><td>${c.counts.pending}</td></tr>`;
  }).join('');
  const a = x.agreement;
  const byModel = x.agreementByModel.map(m => `<tr><td>${e(m.model)}</td><td>${m.n}</td><td>${m.agreement === null ? '–' : `${pct(m.agreement)}%`}</td><td>${fixed(m.kappa)}</td></tr>`).join('');
  const ex = explanationExamplesHtml(x.examples);
  return `<h2>Explanations (${e(x.test)})</h2>
<p>Marked apart from the headline score by two judges of different families, ${judges}: an explanation passes only when both pass it. A model of a judge's family gets no explanation score; an explanation a judge could not mark (three failed calls, or no readable verdict) is unscored, not wrong. Rubric ${e(String(x.scorer.args.rubric))}; judge calls cost ${usd(x.costUsd)}.</p>
<table><thead><tr><th>model</th><th>explanation score [95% CI]</th><th>judged</th><th>passed</th><th>not applicable</th><th>no explanation</th><th>unscored</th><th>pending</th></tr></thead><tbody>${rows}</tbody></table>
<p>Judges' agreement: <b>${a.agreement === null ? '–' : `${pct(a.agreement)}%`}</b> over ${a.n} explanations both judged; Cohen's kappa <b>${fixed(a.kappa)}</b> (both pass ${a.table.bothPass}, both fail ${a.table.bothFail}, only ${e(a.judges[0])} passes ${a.table.onlyFirst}, only ${e(a.judges[1])} passes ${a.table.onlySecond}).</p>
<table><thead><tr><th>model</th><th>both judged</th><th>agreement</th><th>kappa</th></tr></thead><tbody>${byModel}</tbody></table>${ex}`;
}

function failureSection(d: ReportData): string {
  const intro = '<h2>Failures</h2><p>Why trials failed: the stored error of each failed trial (the newest record of the step that failed), grouped by message per model and test. Failed trials are counted apart and never scored as wrong; <code>--retry-errors</code> runs them again. Messages come from the servers.</p>';
  if (!d.trialFailures.length) return `${intro}<p class="na">No trial failed.</p>`;
  const rows = d.trialFailures.map(f => `<tr><td>${e(f.model)}</td><td>${e(f.test)}</td><td>${f.count}</td><td>${f.statusCode ?? '–'}</td><td>${e(f.kind ?? '–')}</td><td><pre>${e(f.message)}</pre></td><td><code>${e(f.exampleTrialId)}</code></td></tr>`).join('');
  return `${intro}<table class="ex"><thead><tr><th>model</th><th>test</th><th>trials</th><th>HTTP status</th><th>kind</th><th>message</th><th>example trial</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * A self-contained HTML report: no script at all and a Content-Security-Policy that forbids one,
 * so text from a model can never run, and every such string is escaped as well.
 */
export function renderHtml(d: ReportData): string {
  const header = d.models.map(m => `<th><a href="#${modelAnchor(m.alias)}">${e(m.alias)}</a>${m.isBaseline ? '<br><span class="tag">baseline</span>' : ''}</th>`).join('');
  const summary = d.rows.map(r => `<tr><th>${e(r.label)}</th>${d.models.map(m => scoreCell(cellAt(d, m.alias, r))).join('')}</tr>`).join('');
  const split = d.rows.some(r => r.language !== null)
    ? `<p>${e(d.rows.filter(r => r.language !== null).map(r => r.test).filter((t, i, all) => all.indexOf(t) === i).join(', '))}: the items span several languages, so each language has its own row, n and interval (no pooled score); the per-group tables below break every test down further.</p>`
    : '';
  const charts = d.rows.map(r => `<figure><figcaption>${e(r.label)}</figcaption>${chart(r.label, d.models.map(m => ({ label: m.alias, cell: cellAt(d, m.alias, r), baseline: m.isBaseline })))}</figure>`).join('');
  const costs = d.models.map(m => `<tr><td>${e(m.alias)}${m.isBaseline ? ' <span class="tag">baseline</span>' : ''}</td><td>${e(m.spec)}</td><td>${m.priced ? usd(m.costUsd) : UNKNOWN}</td><td>${m.priced ? usd(m.costPerCorrect) : UNKNOWN}</td><td>${m.failed}</td></tr>`).join('');
  const judgeCost = d.explanations && d.explanations.judges.some(j => d.unpriced.includes(j.spec)) ? UNKNOWN : usd(d.explanations?.costUsd ?? null);
  const reasons = d.models.filter(m => m.unpricedReason).map(m => `<li>${e(m.alias)}: ${e(m.unpricedReason!)}</li>`).join('');
  const unpricedNote = d.unpriced.length
    ? `<p class="warn">No price in the run's price table for ${d.unpriced.map(s => `<code>${e(s)}</code>`).join(', ')}: the cost of these is unknown (not $0) and the run total leaves it out.</p>${reasons ? `<ul class="warn">${reasons}</ul>` : ''}`
    : '';
  const modelPages = d.models.map(m => {
    const tests = d.tests.map(t => {
      const gs = d.groups.filter(g => g.model === m.alias && g.test === t.name);
      const fails = d.failures.filter(f => f.model === m.alias && f.test === t.name);
      const ex = failureExamplesHtml(fails);
      const lines = d.rows.filter(r => r.test === t.name).map(r => {
        const c = cellAt(d, m.alias, r);
        const what = r.language === null ? '' : `${e(r.language)}: `;
        return c ? `${what}score ${pct(c.mean)} [${pct(c.low)}, ${pct(c.high)}], n=${c.n}, trials ${c.trials}, consistency ${c.consistency === null ? '–' : pct(c.consistency) + '%'}` : `${what}not run`;
      });
      return `<h4>${e(t.name)}</h4><p>${lines.length ? lines.join('<br>') : 'not run'}</p>${groupTable(gs)}<h5>Failure examples (public items only)</h5>${ex}`;
    }).join('');
    return `<section class="model" id="${modelAnchor(m.alias)}"><h3>${e(m.alias)}${m.isBaseline ? ' <span class="tag">baseline</span>' : ''}</h3><p>${e(m.spec)}</p>${tests}</section>`;
  }).join('');
  const scorers = d.tests.map(t => `<li><b>${e(t.name)}</b>: ${e(t.description)} Scorer: ${t.scorer ? `${e(t.scorer.name)} v${e(t.scorer.version)} ${e(JSON.stringify(t.scorer.args))}` : '–'}</li>`).join('');
  return `<!doctype html>
${pageHead(`Paideia report ${e(d.runId)}`)}
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1d2330}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #d5d9e0;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f3f5f8}.ci{color:#5a6270}.na{color:#8a919c}.tag{background:#e8ecf3;border-radius:3px;padding:0 .3rem;font-size:11px;color:#445}
tr.small td{color:#7a5d00}pre{white-space:pre-wrap;overflow-wrap:break-word;word-break:normal;margin:0;max-width:28rem;font-size:12px}
.multiples{display:flex;flex-wrap:wrap;gap:.5rem 1rem}.multiple{margin:0}.pt{fill:#4a78c2}.pt-small{fill:#fff;stroke:#b07d00;stroke-width:1.4}.ci{stroke:#4a78c2;stroke-width:2}.ci-small{stroke:#b07d00;stroke-width:1.5;stroke-dasharray:3 2}svg text.small{fill:#7a5d00}details summary{cursor:pointer;color:#5a6270;font-size:12px}
svg text{font-size:11px;fill:#333}.bm{fill:#4a78c2}.bb{fill:#b9c2cf}.wh{stroke:#111;stroke-width:1.4}.grid{stroke:#e4e7ec}
span.warn{color:#8a4b00}figure{display:inline-block;margin:0 1rem 1rem 0}figcaption{font-weight:600}section.model{border-top:2px solid #d5d9e0;margin-top:1.5rem}
</style></head><body>
<h1>Paideia report</h1>
<p>Run <code>${e(d.runId)}</code> · status <b>${e(d.status)}</b> · ${d.config.repeats} repeat(s) · seed ${d.config.seed} · max_tokens ${d.config.params.maxTokens ?? d.config.maxTokens ?? 'not sent'} · suites ${e(d.config.suites.join(', '))} · generated ${e(d.generatedAt)}</p>
<nav>Models: ${d.models.map(m => `<a href="#${modelAnchor(m.alias)}">${e(m.alias)}</a>`).join(' · ')}</nav>
<h2>Scores</h2>
<p>Mean score per item (in %; an item's score is the mean of its repeats) with a 95% ${d.interval.method} interval over items (${d.interval.resamples} resamples, seed ${d.interval.seed}) and n, the number of scored items. Failed calls are counted apart and never scored as wrong; unscored answers are excluded from means. Baselines mark the floor and the ceiling; n/a marks a test a model was not run on (baseline:random answers closed exercises only).</p>
<table><thead><tr><th>test</th>${header}</tr></thead><tbody>${summary}</tbody></table>
${split}
${charts}
${consistencyTable(d)}
${comparisonTable(d)}
${explanationSection(d)}
<h2>Cost</h2>
<p>Prices from ${e(d.prices.source)} (read ${e(d.prices.date)}), stored with the run.</p>
${unpricedNote}
<table><thead><tr><th>model</th><th>spec</th><th>cost</th><th>cost per correct answer</th><th>failed trials</th></tr></thead><tbody>${costs}${d.explanations ? `<tr><td>judges</td><td>${d.explanations.judges.map(j => e(j.spec)).join(', ')}</td><td>${judgeCost}</td><td>–</td><td></td></tr>` : ''}<tr><th colspan="2">run total</th><th colspan="3">${usd(d.totalCostUsd)}${d.unpriced.length ? ' + unknown' : ''}</th></tr></tbody></table>
${failureSection(d)}
<h2 id="models">Models</h2>
<p>One section per model: its scores, its groups (small multiples with the table below), failure examples from public items only. <code>paideia report ${e(d.runId)} --model NAME</code> writes one as its own page.</p>
${modelPages}
<h2>Methods</h2><ul>${scorers}</ul>
</body></html>
`;
}
