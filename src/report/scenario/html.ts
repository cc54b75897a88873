import { escapeHtml as e } from '../../core/escape.js';
import type { Estimate } from '../../scenarios/analysis/estimate.js';
import type { ScenarioReport } from '../../scenarios/report.js';
import { pageHead } from '../page.js';
import { dimensionLabel, fieldNames, fmtEstimate, num, scoreNote } from './markdown.js';
import { radarSvg } from './radar.js';
import { transcriptId, transcriptsHtml } from './transcripts.js';

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums}.note{color:#555;font-size:.9rem}
details{margin:.4rem 0}.turn{margin:.2rem 0}.text{white-space:pre-wrap}.judgment{border-left:3px solid #ccc;padding-left:.6rem;margin:.5rem 0}pre{white-space:pre-wrap}`;

/** One row of cells; every cell is escaped text. `numeric` right-aligns all but the first `lead` cells. */
function row(cells: string[], lead = 1): string {
  return `<tr>${cells.map((c, i) => `<td${i >= lead ? ' class="n"' : ''}>${e(c)}</td>`).join('')}</tr>`;
}

function table(head: string[], rows: string[]): string {
  return `<table><thead><tr>${head.map(h => `<th>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const est = (x: Estimate) => fmtEstimate(x);


/**
 * The report as one self-contained HTML page: inline CSS and an inline SVG radar chart, no
 * script and no external resource, every string escaped (model names, dimensions and raters come
 * from files and models).
 */
export function renderScenarioHtml(r: ScenarioReport): string {
  const axes = r.radar.axes;
  const body: string[] = [
    `<h1>Scenario ${e(r.scenario)}</h1>`,
    `<p class="note">Run ${e(r.runId)}. ${r.evaluation ? `Judgment ${e(r.evaluation.name)} (version ${e(r.evaluation.version)}).` : 'No evaluation in this scenario.'} Means with ${r.method.level * 100}% ${e(r.method.interval)} intervals (${r.method.resamples} resamples, seed ${r.method.seed}) over tasks. ${r.evaluation ? e(scoreNote(r)) : ''}</p>`,
    '<h2>Models</h2>',
    table(
      ['model', 'spec', 'score', ...axes, 'ended', 'capped', 'failed', 'pending', 'unscored'],
      r.models.map(m => row([
        m.model + (m.isBaseline ? ' (baseline)' : ''), m.spec, est(m.score), ...axes.map(a => (m.dimensions[a] ? est(m.dimensions[a]!) : 'n/a')),
        String(m.dialogues.ended), String(m.dialogues.capped), String(m.dialogues.failed), String(m.dialogues.running), String(m.unscored),
      ], 2)),
    ),
    '<h2>Dimensions</h2>',
    radarSvg(r.radar),
  ];
  const fields = fieldNames(r);
  if (fields.length > 0) {
    body.push(
      '<h2>Fields</h2>',
      '<p class="note">Each numeric field\'s mean on its own values (bool: share true), with its 95% interval over tasks.</p>',
      table(['model', ...fields], r.models.map(m => row([m.model, ...fields.map(f => (m.fields[f] ? est(m.fields[f]!) : 'n/a'))]))),
    );
  }
  if (r.failures.length > 0) {
    body.push(
      '<h2>Failures</h2>',
      '<p class="note">Failed dialogues and judge calls, grouped by error (provider errors, never scored as wrong).</p>',
      table(['model', 'step', 'count', 'status', 'error', 'example trial'],
        r.failures.map(f => row([f.model, f.step, String(f.count), f.statusCode === null ? '-' : String(f.statusCode), f.message, f.exampleTrialId], 2)
          .replace(f.step === 'dialogue' ? `<td class="n">${e(f.exampleTrialId)}</td>` : '\u0000', `<td class="n"><a href="#${e(transcriptId(f.exampleTrialId))}">${e(f.exampleTrialId)}</a></td>`))),
    );
  }
  if (r.judges.length > 0) {
    body.push(
      '<h2>Judges</h2>',
      `<p class="note">${e(r.method.judgeVariance)}. Self-preference: ${e(r.method.selfPreference)}.</p>`,
      table(
        ['judge', 'spec', 'family', 'judgments', 'unscored', 'mean score', 'repeat variance', 'dialogues with repeats', 'own family: judge - panel', 'other: judge - panel', 'own: judge - other judges', 'other: judge - other judges', 'excess', 'excess vs other judges'],
        r.judges.map(j => row([
          j.judge, j.spec, `${j.family} (${j.familySource})`, String(j.judgments), String(j.unscored), est(j.meanScore),
          num(j.repeatVariance.mean, 5), String(j.repeatVariance.outputs),
          est(j.selfPreference.own.delta), est(j.selfPreference.other.delta),
          j.selfPreference.own.deltaOthers ? est(j.selfPreference.own.deltaOthers) : 'n/a',
          j.selfPreference.other.deltaOthers ? est(j.selfPreference.other.deltaOthers) : 'n/a',
          num(j.selfPreference.excess), num(j.selfPreference.excessOthers),
        ], 3)),
      ),
    );
    const reasons = r.judges.flatMap(j => j.unscoredReasons.map(u => row([j.judge, u.reason, String(u.count)], 2)));
    if (reasons.length > 0) {
      body.push('<h3>Unscored judgments</h3>', '<p class="note">Answers that never fit the format, by reason (the most frequent per judge); left out of every mean, never counted as 0.</p>',
        table(['judge', 'reason', 'count'], reasons));
    }
  }
  if (r.comparisons.length > 0) {
    body.push(
      '<h2>Comparisons</h2>',
      '<p class="note">Paired bootstrap (95%) of the difference in weighted score, a - b, over the tasks both models were scored on.</p>',
      table(
        ['a', 'b', 'tasks', 'a - b', '95% low', '95% high', 'note'],
        r.comparisons.map(c => row([c.a, c.b, String(c.n), num(c.difference), num(c.low), num(c.high), c.note], 2)),
      ),
    );
  }
  if (r.human) {
    body.push(
      '<h2>Judges and experts</h2>',
      `<p class="note">Experts: ${e(r.human.raters.map(x => `${x.rater} (${x.outputs} dialogues)`).join(', '))}. ${e(r.method.agreement)}.</p>`,
      table(
        ['judge', 'dimension', 'n', 'Kendall tau-b', 'p', 'ICC(2,1)', 'ICC 95% low', 'ICC 95% high', 'mean judge - expert'],
        r.human.agreement.map(a => row([a.judge, dimensionLabel(a.dimension), String(a.n), num(a.kendallTauB), num(a.kendallP, 4), num(a.icc), num(a.iccLow), num(a.iccHigh), est(a.meanDeviation)], 2)),
      ),
      `<p class="note">${e(r.method.reliability)}.</p>`,
      table(
        ['dimension', 'Cronbach alpha', '95% low', '95% high', 'dialogues', 'experts', 'note'],
        r.human.reliability.map(x => row([dimensionLabel(x.dimension), num(x.alpha), num(x.low), num(x.high), String(x.n), String(x.k), x.note ?? ''])),
      ),
    );
  }
  body.push(transcriptsHtml(r.dialogues ?? []));
  return `<!DOCTYPE html>
${pageHead(`Scenario ${e(r.scenario)} - Paideia`)}<style>${STYLE}</style></head>
<body>${body.join('\n')}</body></html>
`;
}
