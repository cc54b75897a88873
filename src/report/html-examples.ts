import type { JsonValue } from '../core/index.js';
import type { FailureExample } from './data.js';
import type { ExplanationExample } from './explanations.js';
import { escapeHtml as e } from '../core/escape.js';
import type { PromptMessage } from './prompt-text.js';

const pct = (x: number) => (x * 100).toFixed(1);

/**
 * What the model was asked, as it read it: the rendered prompt, the system message folded away
 * (`<details>`, no script) since every item of a test shares it. The item's JSON input only when
 * the prompt cannot be rendered.
 */
export function promptHtml(prompt: PromptMessage[] | null | undefined, input: JsonValue): string {
  if (!prompt) return `<pre>${e(JSON.stringify(input, null, 1))}</pre>`;
  return prompt.map(m => (m.role === 'system'
    ? `<details><summary>system prompt</summary><pre>${e(m.content)}</pre></details>`
    : `<pre>${e(m.content)}</pre>`)).join('');
}

/** One model's wrong answers on public items of one test. */
export function failureExamplesHtml(fails: FailureExample[]): string {
  if (!fails.length) return '<p class="na">No failures on public items.</p>';
  const rows = fails.map(f => `<tr><td>${e(f.itemId)}</td><td>${promptHtml(f.prompt, f.input)}</td><td>${e(f.expected.join(' | '))}</td><td><pre>${e(f.answer)}</pre></td><td>${pct(f.value)}</td><td>${e(f.reason)}</td></tr>`).join('');
  return `<table class="ex"><thead><tr><th>item</th><th>prompt the model saw</th><th>expected</th><th>answer</th><th>score</th><th>why</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Explanations the judges failed, public items only. */
export function explanationExamplesHtml(xs: ExplanationExample[]): string {
  if (!xs.length) return '';
  const rows = xs.map(f => `<tr><td>${e(f.model)}</td><td>${e(f.itemId)}</td><td>${promptHtml(f.prompt, f.input)}</td><td><pre>${e(f.answer)}</pre></td><td>${e(f.reason)}</td></tr>`).join('');
  return `<h3>Failed explanations (public items only)</h3><table class="ex"><thead><tr><th>model</th><th>item</th><th>prompt the model saw</th><th>answer</th><th>why</th></tr></thead><tbody>${rows}</tbody></table>`;
}
