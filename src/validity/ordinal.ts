/** The scale an answer must fall on; `levels` maps level words (e.g. "high") to their values. */
export interface OrdinalScale {
  min: number;
  max: number;
  levels?: Readonly<Record<string, number>>;
}

export type OrdinalParse =
  | { scored: true; value: number; via: 'label' | 'bare' | 'last-line' }
  | { scored: false; reason: string };

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
};
// "Rating: 4", "**Final score** - 4", "rating = 4": the word must stand alone and be followed by a separator.
const LABEL = /(?:^|[^\p{L}\p{N}])(?:final\s+)?(?:rating|score)[ \t*_]*[:=\-–][ \t]*([^\n]*)/giu;
const DECORATION = /^[\s*_`"'([{]+|[\s*_`"')\]}.!,;]+$/g;

/**
 * Reads an ordinal rating from a model's free-text answer: the value after the last
 * "Rating:"/"Score:" label (chain-of-thought answers end "Reasoning: ... Rating: <n>"), else an
 * answer that is only a rating ("4", "4/5", "4 out of 5", "four", a level word), else a last line
 * that is only a rating. Anything else is unscored with the reason; the parser never guesses
 * (a rating in the middle of prose, two different labelled ratings, a fraction of another scale,
 * a value between levels and a value off the scale are all unscored).
 */
export function parseOrdinal(text: string, scale: OrdinalScale): OrdinalParse {
  if (typeof text !== 'string' || text.trim() === '') return { scored: false, reason: 'empty answer' };
  const labelled = [...text.matchAll(LABEL)].map(m => m[1]!);
  if (labelled.length) {
    const values = labelled.map(rest => readRating(rest, scale, true));
    const scored = values.filter((v): v is { value: number } => 'value' in v);
    const distinct = [...new Set(scored.map(v => v.value))];
    if (distinct.length > 1) return { scored: false, reason: `conflicting labelled ratings ${distinct.join(' and ')}` };
    const last = values[values.length - 1]!;
    if ('value' in last) return { scored: true, value: last.value, via: 'label' };
    if (distinct.length === 1) return { scored: true, value: distinct[0]!, via: 'label' };
    // A rating that is there but invalid (off the scale) is reported as such.
    if (last.final) return { scored: false, reason: last.reason };
    return { scored: false, reason: `the rating label is not followed by a rating: ${last.reason}` };
  }
  const whole = readRating(text, scale, false);
  if ('value' in whole) return { scored: true, value: whole.value, via: 'bare' };
  if (whole.final) return { scored: false, reason: whole.reason };
  const lines = text.split('\n').map(l => l.trim()).filter(Boolean);
  if (lines.length > 1) {
    const last = readRating(lines[lines.length - 1]!, scale, false);
    if ('value' in last) return { scored: true, value: last.value, via: 'last-line' };
    if (last.final) return { scored: false, reason: last.reason };
  }
  return { scored: false, reason: 'no "Rating: <n>" label and the answer is not a bare rating' };
}

type Read = { value: number } | { reason: string; final: boolean };

/**
 * One rating from `raw`. With `leading`, the rating may be followed by more text ("4 - clear");
 * otherwise the text must be the rating alone. `final` marks a rating that was found but is invalid
 * (off the scale, between levels), which must not fall through to a looser reading.
 */
function readRating(raw: string, scale: OrdinalScale, leading: boolean): Read {
  const s = raw.trim().replace(DECORATION, '').trim();
  const tail = leading ? '(?:\\b|$)' : '$';
  const num = new RegExp(`^([+-]?\\d+(?:\\.\\d+)?)(?:\\s*(?:/|out\\s+of|of)\\s*(\\d+(?:\\.\\d+)?))?\\s*[*_)\\].]*${leading ? '' : '$'}`, 'i').exec(s);
  if (num) {
    const value = Number(num[1]);
    if (num[2] !== undefined && Number(num[2]) !== scale.max) {
      return { reason: `"${num[0].trim()}" is on a scale to ${num[2]}, not to ${scale.max}`, final: true };
    }
    return onScale(value, scale);
  }
  const lower = s.toLowerCase();
  const words = Object.entries({ ...NUMBER_WORDS, ...lowerKeys(scale.levels ?? {}) }).sort((a, b) => b[0].length - a[0].length);
  for (const [word, value] of words) {
    if (new RegExp(`^${escapeRegExp(word)}${tail}`, 'i').test(lower)) return onScale(value, scale);
  }
  return { reason: leading ? `"${clip(s)}" is not a rating` : 'not a bare rating', final: false };
}

function onScale(value: number, scale: OrdinalScale): Read {
  if (!Number.isInteger(value)) return { reason: `${value} is not a level of the scale ${scale.min}-${scale.max}`, final: true };
  if (value < scale.min || value > scale.max) return { reason: `rating ${value} is outside the scale ${scale.min}-${scale.max}`, final: true };
  return { value };
}

function lowerKeys(levels: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(levels).map(([k, v]) => [k.toLowerCase().trim(), v]));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
