import { finalAnswerText } from '../../metrics/reasoning.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { FormatField } from '../types.js';

/** Name of the function a judge is made to call in `format_mode: tool`. */
export const JUDGE_TOOL_NAME = 'submit_evaluation';

/** Markers around the JSON answer in `format_mode: prompt`. */
export const JSON_OPEN = '<json>';
export const JSON_CLOSE = '</json>';

/** JSON Schema of the judge's answer, from the scenario's `format` list. */
export function formatJsonSchema(fields: ReadonlyArray<FormatField>): JsonObject {
  const properties: JsonObject = {};
  for (const f of fields) properties[f.field] = fieldSchema(f);
  return { type: 'object', properties, required: fields.map(f => f.field), additionalProperties: false };
}

function fieldSchema(f: FormatField): JsonObject {
  const out: JsonObject = {};
  if (f.description) out.description = f.description;
  switch (f.type) {
    case 'str': return { ...out, type: 'string' };
    case 'bool': return { ...out, type: 'boolean' };
    case 'dict': return { ...out, ...formatJsonSchema(f.items ?? []) };
    case 'int':
    case 'float': {
      const lo = f.min ?? f.scale?.min;
      const hi = f.max ?? f.scale?.max;
      return { ...out, type: f.type === 'int' ? 'integer' : 'number', ...(lo !== undefined ? { minimum: lo } : {}), ...(hi !== undefined ? { maximum: hi } : {}) };
    }
  }
}

export type CheckedAnswer = { ok: true; value: JsonObject } | { ok: false; problems: string[] };

/**
 * Check an answer against `format`: every field present with its type and within min/max (and
 * the scale, when one is set). Lenient only where models are: "4" for an int and "true" for a bool
 * are accepted and converted. Extra keys are kept.
 */
export function checkAnswer(value: unknown, fields: ReadonlyArray<FormatField>, prefix = ''): CheckedAnswer {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problems: [`${prefix || 'the answer'} must be a JSON object`] };
  }
  const input = value as Record<string, unknown>;
  const out: JsonObject = { ...(input as JsonObject) };
  const problems: string[] = [];
  for (const f of fields) {
    const name = prefix ? `${prefix}.${f.field}` : f.field;
    const v = input[f.field];
    if (v === undefined || v === null) { problems.push(`${name} is missing`); continue; }
    switch (f.type) {
      case 'str':
        if (typeof v === 'string') out[f.field] = v;
        else problems.push(`${name} must be a string`);
        break;
      case 'bool': {
        const b = typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined;
        if (b === undefined) problems.push(`${name} must be true or false`);
        else out[f.field] = b;
        break;
      }
      case 'int':
      case 'float': {
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        if (!Number.isFinite(n)) { problems.push(`${name} must be a number`); break; }
        if (f.type === 'int' && !Number.isInteger(n)) { problems.push(`${name} must be a whole number, got ${n}`); break; }
        const lo = Math.max(f.min ?? -Infinity, f.scale?.min ?? -Infinity);
        const hi = Math.min(f.max ?? Infinity, f.scale?.max ?? Infinity);
        if (n < lo || n > hi) {
          const range = lo === -Infinity ? `at most ${hi}` : hi === Infinity ? `at least ${lo}` : `between ${lo} and ${hi}`;
          problems.push(`${name} must be ${range}, got ${n}`);
          break;
        }
        out[f.field] = n;
        break;
      }
      case 'dict': {
        const inner = checkAnswer(v, f.items ?? [], name);
        if (inner.ok) out[f.field] = inner.value;
        else problems.push(...inner.problems);
        break;
      }
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, value: out };
}

export { finalAnswerText } from '../../metrics/reasoning.js';

/** Top-level `{...}` spans of a text, in order; braces inside JSON strings are skipped. */
function braceObjects(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (depth > 0 && inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{') { if (depth === 0) start = i; depth++; }
    else if (ch === '}' && depth > 0) { depth--; if (depth === 0) out.push(text.slice(start, i + 1)); }
  }
  return out;
}

/**
 * The JSON object of a prompt-mode answer. Reasoning blocks (`<think>` and the like) are dropped
 * first: a draft inside them is never taken. In the final answer, the blocks between the markers
 * are tried last first (a malformed last block falls back to earlier ones); then ```json fences,
 * last first; then the whole text; then any `{...}` object in it, last first.
 */
export function extractJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const answer = finalAnswerText(text);
  const candidates: string[] = [];
  const marked = [...answer.matchAll(/<json>([\s\S]*?)<\/json>/gi)].map(m => m[1]!);
  candidates.push(...marked.reverse());
  const fenced = [...answer.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)].map(m => m[1]!);
  candidates.push(...fenced.reverse());
  candidates.push(answer);
  candidates.push(...braceObjects(answer).reverse());
  for (const c of candidates) {
    if (c.trim() === '') continue;
    try {
      return { ok: true, value: JSON.parse(c.trim()) as unknown };
    } catch {
      // try the next candidate
    }
  }
  const why = answer === '' && text.trim() !== '' ? 'the answer is all reasoning (nothing after the <think> block); ' : '';
  return { ok: false, problem: `no JSON object found; ${why}answer with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE}` };
}

/** The format instruction appended in prompt mode, with an example that satisfies the format. */
export function promptModeInstruction(fields: ReadonlyArray<FormatField>): string {
  return [
    `Answer with one JSON object between ${JSON_OPEN} and ${JSON_CLOSE} and nothing after it. The object must match this JSON Schema:`,
    JSON.stringify(formatJsonSchema(fields)),
    `For example: ${JSON_OPEN}${JSON.stringify(exampleOf(fields))}${JSON_CLOSE}`,
  ].join('\n');
}

function exampleOf(fields: ReadonlyArray<FormatField>): JsonObject {
  const out: JsonObject = {};
  for (const f of fields) out[f.field] = exampleValue(f);
  return out;
}

function exampleValue(f: FormatField): JsonValue {
  switch (f.type) {
    case 'str': return '...';
    case 'bool': return true;
    case 'dict': return exampleOf(f.items ?? []);
    case 'int':
    case 'float': return f.max ?? f.scale?.max ?? f.min ?? 0;
  }
}
