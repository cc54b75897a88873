import { escapeHtml } from '../../core/escape.js';
import type { Store } from '../../core/index.js';
import type { LearningReport, StudyData } from '../../learning/report/index.js';
import { pageHead } from '../page.js';
import { figureText, renderLearningMarkdown } from './markdown.js';
import { barPlot, scatterPlot } from './plots.js';
import type { LearningJudgeValidity } from './alignment.js';

const CSS = `body{font-family:sans-serif;margin:24px;max-width:1300px} table{border-collapse:collapse;margin:8px 0} td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;vertical-align:top}
.deck{display:grid;grid-template-columns:660px 1fr;gap:16px;border-top:2px solid #ddd;padding-top:12px;margin-top:16px} .deck img{width:640px;border:1px solid #aaa;display:block;margin-bottom:6px}
.ok{color:#176117} .wrong{color:#a01515} pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:6px}`;

/**
 * The report as one self-contained HTML page: the tables, a gain plot and D1/D2-vs-gain scatters,
 * then each deck as generated with its slides as images beside its judgments and the learners' answers.
 */
export async function renderLearningHtml(r: LearningReport, data: StudyData, store: Store, validity?: LearningJudgeValidity, analyzeCommand?: string): Promise<string> {
  const gens = Object.entries(r.generators);
  const plots = [
    barPlot('Gain (post - pre) per generator, 95% interval over units', gens.map(([name, g]) => ({ name, figure: g.gain })), -1, 1),
    ...(['d1', 'd2'] as const).map(dim => scatterPlot(`${dim.toUpperCase()} (x, 1-5) against gain (y) per deck`, deckPoints(data, dim), [1, 5], [-1, 1])),
  ];
  const decks: string[] = [];
  for (const records of data.decks.values()) {
    const deck = records.find(d => d.variant === 'original');
    if (!deck) continue;
    const slides: string[] = [];
    if (deck.status === 'ok') {
      for (const s of deck.slides) {
        const blob = s.png ? await store.getBlob(s.png.hash) : undefined;
        slides.push(blob ? `<img alt="slide ${s.index}" src="data:image/png;base64,${Buffer.from(blob.bytes).toString('base64')}">` : `<pre>${escapeHtml(s.text)}</pre>`);
      }
    } else slides.push(`<p class="wrong">rejected (${escapeHtml(deck.reason)}): ${escapeHtml(deck.message)}</p>`);
    const judgments = data.judgments.filter(j => j.targetTrialId === deck.trialId && j.details?.deckVariant === 'original');
    const learners = data.learners.filter(l => l.record.deck === deck.trialId && l.record.deckVariant === 'original');
    decks.push(`<section class="deck"><div><h3>${escapeHtml(deck.unit)} by ${escapeHtml(deck.generator.alias)}</h3>${slides.join('')}</div><div>
<h4>Judgments</h4><table><tr><th>judge</th><th>dim</th><th>repeat</th><th>value</th><th>sub-dimensions</th><th>reason</th></tr>${judgments.map(j => `<tr><td>${escapeHtml(j.rater.alias)}</td><td>${escapeHtml(j.details?.dimension)}</td><td>${j.repeat}</td><td>${j.value === null ? 'unscored' : j.value.toFixed(2)}</td><td>${escapeHtml(Object.entries(j.fields).map(([k, v]) => `${k} ${String(v)}`).join(', '))}</td><td>${escapeHtml(j.reason ?? '')}</td></tr>`).join('')}</table>
<h4>Learner answers</h4>${learners.map(l => `<p><b>${escapeHtml(l.record.learner.alias)}</b> (context ${l.record.puzzleContext ? 'on' : 'off'}, frames ${escapeHtml(l.record.frames)}, trial ${escapeHtml(l.record.trialId.slice(0, 8))}): pre ${figureText({ mean: l.scores.pretest, n: 1, low: null, high: null })}, post ${figureText({ mean: l.scores.posttest, n: 1, low: null, high: null })}</p>
<table><tr><th>phase</th><th>prompt</th><th>answer</th><th>mark</th></tr>${l.record.answers.map((a, i) => `<tr><td>${a.phase}</td><td>${escapeHtml(a.prompt)}</td><td>${a.answer === null ? `<i>${escapeHtml(a.reason ?? 'none')}</i>` : escapeHtml(a.answer)}</td><td class="${l.marks[i]!.correct ? 'ok' : 'wrong'}">${l.marks[i]!.correct ? 'right' : 'wrong'}</td></tr>`).join('')}</table>`).join('')}
</div></section>`);
  }
  // The page has its own title: the Markdown's first heading would repeat it.
  const md = renderLearningMarkdown(r, validity, analyzeCommand).split('\n').slice(1).join('\n');
  return `<!DOCTYPE html>\n${pageHead(`Learning study ${escapeHtml(r.runId)}`)}<style>${CSS}</style></head><body>
<h1>Learning study ${escapeHtml(r.runId)}</h1>
${markdownTables(md)}
<h2>Plots</h2>${plots.join('')}
<h2>Decks, judgments and answers</h2>${decks.join('')}
</body></html>\n`;
}

/** Per deck (unit x generator): the judges' mean on a dimension against the learners' mean gain. */
export function deckPoints(data: StudyData, dim: 'd1' | 'd2'): Array<{ x: number; y: number; label: string }> {
  const out: Array<{ x: number; y: number; label: string }> = [];
  for (const [trialId, records] of data.decks) {
    const js = data.judgments.filter(j => j.targetTrialId === trialId && j.details?.dimension === dim && j.details?.deckVariant === 'original' && j.value !== null);
    const ls = data.learners.filter(l => l.record.deck === trialId && l.record.deckVariant === 'original' && l.scores.posttest !== null && l.scores.pretest !== null);
    if (!js.length || !ls.length) continue;
    out.push({ x: js.reduce((a, j) => a + j.value!, 0) / js.length, y: ls.reduce((a, l) => a + l.scores.posttest! - l.scores.pretest!, 0) / ls.length, label: `${records[0]!.unit} / ${records[0]!.generator.alias}` });
  }
  return out;
}

/** The Markdown tables as HTML tables (their cells are already escaped for Markdown and HTML). */
function markdownTables(md: string): string {
  const html: string[] = [];
  let rows: string[][] = [];
  const flush = () => {
    if (rows.length) html.push(`<table>${rows.map((r, i) => `<tr>${r.map(c => (i === 0 ? `<th>${c}</th>` : `<td>${c}</td>`)).join('')}</tr>`).join('')}</table>`);
    rows = [];
  };
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) {
      if (!/^\|[-| ]+\|$/.test(line)) rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map(c => c.trim().replace(/\\(.)/g, '$1')));
      continue;
    }
    flush();
    if (line.startsWith('#')) {
      const level = Math.min(4, line.match(/^#+/)![0].length + 1);
      html.push(`<h${level}>${escapeHtml(line.replace(/^#+\s*/, ''))}</h${level}>`);
    } else if (line.trim()) html.push(`<p>${escapeHtml(line)}</p>`);
  }
  flush();
  return html.join('\n');
}
