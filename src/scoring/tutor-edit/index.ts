import { z } from 'zod';
import { extend, type JsonObject, type Scorer, type ScoreResult } from '../../core/index.js';
import { matchesAccepted, sameEdit, type NormalizeOptions, type SameEditResult, finalAnswerText } from '../../metrics/index.js';

const AnswerSchema = z.object({
  has_error: z.boolean(),
  wrong_span: z.string().nullable().optional(),
  correction: z.string().nullable().optional(),
  corrected_sentence: z.string(),
  explanation: z.string().optional(),
});

/** Where in a reply the JSON object was found: the n-th fenced block, or the n-th balanced `{...}` of the text (0-based). */
export interface JsonCandidate {
  from: 'fence' | 'braces';
  index: number;
  /** Character offsets of the candidate in the reply. */
  start: number;
  end: number;
}

/** A code fence whose language is `json` or none; other languages (```python) are left to the brace scan. */
const FENCE = /```[ \t]*(?:json)?[ \t]*\r?\n?([\s\S]*?)```/gi;

/**
 * Every balanced top-level `{...}` of a text, in order, as [start, end) offsets. Braces inside JSON
 * strings (between unescaped double quotes within an object) do not count. An opening brace that is
 * never closed is skipped and the scan resumes just after it, so `Use {x. {"a": 1}` still finds
 * `{"a": 1}`.
 */
export function balancedObjects(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('{', from);
    if (start < 0) return out;
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    if (end < 0) {
      from = start + 1;
      continue;
    }
    out.push([start, end]);
    from = end;
  }
}

/** The candidates a reply offers, in the order they are tried: fenced blocks first, then balanced objects. */
export function jsonCandidates(text: string): Array<JsonCandidate & { text: string }> {
  const out: Array<JsonCandidate & { text: string }> = [];
  const seen = new Set<string>();
  let n = 0;
  for (const m of text.matchAll(FENCE)) {
    const body = m[1]!.trim();
    if (!body.startsWith('{') || seen.has(body)) continue;
    seen.add(body);
    const start = m.index + m[0].indexOf(m[1]!);
    out.push({ from: 'fence', index: n++, start, end: start + m[1]!.length, text: body });
  }
  balancedObjects(text).forEach(([start, end], index) => {
    const body = text.slice(start, end);
    if (seen.has(body)) return;
    seen.add(body);
    out.push({ from: 'braces', index, start, end, text: body });
  });
  return out;
}

/**
 * The first JSON object of a reply that parses and (with a schema) fits it, with where it was found.
 * Candidates are tried in order (see jsonCandidates), so valid JSON followed by prose with braces
 * (`Hope this helps {smile}`) is read. Throws: `no JSON object in the answer` when there is no
 * candidate; the first schema error when some candidate parsed but none fitted; else the first
 * JSON syntax error.
 */
export function findJsonObject<T = unknown>(text: string, schema?: z.ZodType<T>): { value: T; candidate: JsonCandidate } {
  // A reasoning model's draft JSON inside <think> is not its answer.
  const candidates = jsonCandidates(finalAnswerText(text));
  if (candidates.length === 0) throw new Error('no JSON object in the answer');
  let syntaxError: Error | undefined;
  let schemaError: z.ZodError | undefined;
  for (const { text: body, ...candidate } of candidates) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      syntaxError ??= e as Error;
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    if (!schema) return { value: value as T, candidate };
    const fit = schema.safeParse(value);
    if (fit.success) return { value: fit.data, candidate };
    schemaError ??= fit.error;
  }
  throw schemaError ?? syntaxError ?? new Error('no JSON object in the answer');
}

/** The first JSON object in a reply (see findJsonObject), tolerating code fences and text around it. */
export function extractJsonObject(text: string): unknown {
  return findJsonObject(text).value;
}

/** The tutor answer as the `tutor-edit` scorer reads it. */
export type ParsedTutorAnswer = z.infer<typeof AnswerSchema>;

/**
 * Parse a tutor_accuracy reply (code fences and text around the JSON tolerated; the first candidate
 * object that fits the answer shape wins). Never throws: an unparseable reply comes back with the
 * reason, which marking records.
 */
export function parseTutorAnswer(text: string):
  | { ok: true; answer: ParsedTutorAnswer; candidate: JsonCandidate }
  | { ok: false; reason: string } {
  try {
    const { value, candidate } = findJsonObject(text, AnswerSchema);
    return { ok: true, answer: value, candidate };
  } catch (e) {
    const why = e instanceof z.ZodError ? e.issues.map(i => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ') : (e as Error).message;
    return { ok: false, reason: `unparseable answer: ${why}` };
  }
}

/**
 * How sentences are compared. Case counts (a lower-cased sentence is changed, and a change of case
 * is an edit); Unicode composition (NFC), the apostrophe look-alikes and whitespace do not.
 */
export const TUTOR_EDIT_NORMALIZE: Readonly<NormalizeOptions> = Object.freeze({ caseFold: false });

/**
 * The tutor test's marking: correct only when the model found and fixed the error and changed
 * nothing else (token-level edit comparison against the item's answer and each of its accepted
 * corrections), or, for a correct sentence, said so and left it unchanged. Case is significant
 * throughout (see TUTOR_EDIT_NORMALIZE). An unparseable answer is wrong, with the reason recorded;
 * it never throws.
 *
 * Version 2 (v1 scores stay distinguishable in the store): accepted alternatives count; a change of
 * case is a change; the JSON is found by a string-aware scan of fenced blocks and balanced objects.
 */
export function tutorEditScorer(args: JsonObject = {}): Scorer {
  const normalize = TUTOR_EDIT_NORMALIZE;
  return {
    ref: { name: 'tutor-edit', version: '3', args },
    score: function tutorEdit({ item, outputs }): ScoreResult {
      const sentence = String(item.input.sentence ?? '');
      const key = item.answer as { has_error?: boolean; corrected_sentence?: string } | undefined;
      const expected = key?.corrected_sentence ?? item.accepted?.[0] ?? sentence;
      const same = (a: string, b: string) => matchesAccepted(a, [b], normalize).matched;
      const hasError = key?.has_error ?? !same(expected, sentence);
      const read = parseTutorAnswer(outputs.at(-1) ?? '');
      if (!read.ok) return { value: 0, reason: read.reason };
      const parsed = read.answer;
      const details: JsonObject = { modelSaysError: parsed.has_error, hasError, json: { ...read.candidate } };
      if (!hasError) {
        if (parsed.has_error) return { value: 0, reason: 'flagged an error in a correct sentence', details };
        return same(parsed.corrected_sentence, sentence)
          ? { value: 1, details }
          : { value: 0, reason: 'said there was no error but changed the sentence', details };
      }
      if (!parsed.has_error) return { value: 0, reason: 'missed the error', details };
      // The answer key's correction first, then every accepted alternative that is a correction at all.
      const corrections = [expected, ...(item.accepted ?? [])]
        .filter((c, i, all) => !same(c, sentence) && all.findIndex(x => same(x, c)) === i);
      if (corrections.length === 0) corrections.push(expected);
      // When none matches, the reason is the closest correction's: fewest extra plus missing edits (the key's on a tie).
      let closest: SameEditResult | undefined;
      const distance = (r: SameEditResult) => r.extraChanges.length + r.missingChanges.length;
      for (const [i, correction] of corrections.entries()) {
        const edit = sameEdit(sentence, correction, parsed.corrected_sentence, { normalize });
        if (edit.ok) return { value: 1, details: i > 0 ? extend(details, { matchedCorrection: correction }) : details };
        if (!closest || distance(edit) < distance(closest)) closest = edit;
      }
      return { value: 0, reason: closest!.reason, details: extend(details, { edit: closest!.reason, editCode: closest!.code }) };
    },
  };
}
