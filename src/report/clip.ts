import type { JsonValue } from '../core/index.js';

/** Longest answer, input or message text a report copies; the rest is replaced by a note. */
export const MAX_REPORT_TEXT = 2000;

/** A text cut to at most `max` characters (UTF-16 units, never splitting a surrogate pair). */
export interface Clipped {
  text: string;
  truncated: boolean;
  /** Length of the whole text. */
  length: number;
}

/** Cut `text` to `max` characters followed by `… (N more characters)` (UTF-16 units); shorter texts come back unchanged. */
export function clipText(text: string, max = MAX_REPORT_TEXT): Clipped {
  if (text.length <= max) return { text, truncated: false, length: text.length };
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // keep a surrogate pair whole
  const more = text.length - cut;
  return { text: `${text.slice(0, cut)}… (${more} more character${more === 1 ? '' : 's'})`, truncated: true, length: text.length };
}

/** Every string inside a JSON value clipped (see clipText); `truncated` when any was. */
export function clipJson(value: JsonValue, max = MAX_REPORT_TEXT): { value: JsonValue; truncated: boolean } {
  let truncated = false;
  const walk = (v: JsonValue): JsonValue => {
    if (typeof v === 'string') {
      const c = clipText(v, max);
      truncated ||= c.truncated;
      return c.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value), truncated };
}

/**
 * Replaces every occurrence of a private item's text (its id and every string of six or more
 * characters in its input, accepted answers, references and answer key) in a server's message, so
 * an error that quotes the request cannot publish a private item.
 */
export function privateTextScrubber(texts: Iterable<string>): (message: string) => string {
  const needles = [...new Set([...texts].filter(t => t.length >= 6))].sort((a, b) => b.length - a.length);
  if (needles.length === 0) return m => m;
  return message => needles.reduce((m, n) => (m.includes(n) ? m.split(n).join('[private item text]') : m), message);
}

/** Strings inside a JSON-like value, for privateTextScrubber. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}
