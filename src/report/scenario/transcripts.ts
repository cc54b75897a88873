import { escapeHtml as e } from '../../core/escape.js';
import type { JsonValue } from '../../core/json.js';
import type { Transcript } from '../../scenarios/analysis/transcripts.js';
import { num } from './markdown.js';

/** The anchor of a dialogue's transcript in the page. */
export const transcriptId = (trialId: string): string => `d-${trialId}`;

const valueText = (v: JsonValue): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The dialogues section: a table whose rows link to each transcript, then one collapsible block
 * per dialogue with its turns and every judge's fields (reasons included) and raw answer.
 */
export function transcriptsHtml(dialogues: ReadonlyArray<Transcript>): string {
  if (dialogues.length === 0) return '';
  const rows = dialogues.map(d => `<tr><td><a href="#${e(transcriptId(d.trialId))}">${e(d.taskId)}</a></td><td>${e(d.model)}</td><td class="n">${d.repeat}</td><td>${e(d.status)}</td><td class="n">${e(num(d.score))}</td><td class="n">${d.judgments.length}</td></tr>`);
  const blocks = dialogues.map(d => {
    const turns = d.messages.map(m => `<div class="turn"><b>${e(m.speaker)}</b>: <span class="text">${e(m.content)}</span></div>`).join('');
    const judged = d.judgments.map(j => {
      const fields = Object.entries(j.fields).map(([k, v]) => `<tr><th>${e(k)}</th><td>${e(valueText(v))}</td></tr>`).join('');
      return `<div class="judgment"><p><b>${e(j.judge)}</b>, repeat ${j.repeat}: score ${e(num(j.value))}${j.reason ? `, unscored: ${e(j.reason)}` : ''}</p>`
        + `${fields ? `<table>${fields}</table>` : ''}<details><summary>raw answer</summary><pre>${e(j.raw)}</pre></details></div>`;
    }).join('');
    return `<details id="${e(transcriptId(d.trialId))}"><summary>${e(d.taskId)} - ${e(d.model)} - repeat ${d.repeat} (${e(d.status)})</summary>${turns}${judged || '<p>Not judged.</p>'}</details>`;
  });
  return [
    '<h2>Dialogues</h2>',
    '<p class="note">Each dialogue\'s transcript with its judges\' fields, reasons and raw answers (what the models said; reasoning blocks removed).</p>',
    `<table><thead><tr><th>task</th><th>model</th><th>repeat</th><th>status</th><th>score</th><th>judgments</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    ...blocks,
  ].join('\n');
}
