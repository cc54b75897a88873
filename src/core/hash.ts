import * as crypto from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so equal content always hashes equally
 * whatever order a file or a caller wrote the keys in. Undefined properties are left out and
 * undefined array entries become null, exactly as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'null';
}

// Writes the string directly instead of building a sorted copy first: hashing runs several times
// per trial, and the copy was most of its cost. Objects have few keys, so an insertion sort (same
// order as Array#sort on strings: by UTF-16 code unit) beats the generic one.
function write(value: unknown): string | undefined {
  if (typeof value === 'string' || value === null || typeof value !== 'object') return JSON.stringify(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return write((value as { toJSON: () => unknown }).toJSON());
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // Strings, numbers, booleans and nulls only (a run's million item hashes, an item's accepted
    // answers): JSON.stringify writes exactly this, natively and as one flat string.
    if (allPlain(value)) return JSON.stringify(value);
    let out = '[' + (write(value[0]) ?? 'null');
    for (let i = 1; i < value.length; i++) out += ',' + (write(value[i]) ?? 'null');
    return out + ']';
  }
  const keys = sortKeys(Object.keys(value));
  let out = '';
  for (const key of keys) {
    const v = write((value as Record<string, unknown>)[key]);
    if (v !== undefined) out += (out ? ',' : '{') + quoteKey(key) + ':' + v;
  }
  return out ? out + '}' : '{}';
}

function allPlain(values: unknown[]): boolean {
  for (const v of values) if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return false;
  return true;
}

/** Keys in Array#sort's default order (by UTF-16 code unit), in place: an insertion sort, as objects have few keys and a sort's scratch array would cost more. */
function sortKeys(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

// Object keys repeat across items and requests ("role", "content", ...): quote each once.
const quoted = new Map<string, string>();
function quoteKey(key: string): string {
  let q = quoted.get(key);
  if (q === undefined) {
    q = JSON.stringify(key);
    if (quoted.size < 10_000) quoted.set(key, q);
  }
  return q;
}

/**
 * Two canonical texts of a plain object written in one pass, sharing the text of every value:
 * `whole` (all its keys) and `keyed` (only the keys in `pick`, plus those of `add`). The engine
 * stores a request whole and hashes it without its context but with who answers it.
 */
export function canonicalJsonPair(value: object, pick: ReadonlySet<string>, add: Readonly<Record<string, unknown>>): { whole: string; keyed: string } {
  const keys = Object.keys(value);
  for (const key of Object.keys(add)) if (!Object.hasOwn(value, key)) keys.push(key);
  sortKeys(keys);
  let whole = '';
  let keyed = '';
  for (const key of keys) {
    const own = Object.hasOwn(value, key);
    const text = own ? write((value as Record<string, unknown>)[key]) : undefined;
    if (text !== undefined) whole += (whole ? ',' : '{') + quoteKey(key) + ':' + text;
    const shown = Object.hasOwn(add, key) ? write(add[key]) : pick.has(key) ? text : undefined;
    if (shown !== undefined) keyed += (keyed ? ',' : '{') + quoteKey(key) + ':' + shown;
  }
  // Opened at the first key, as write() does: no slice (which would flatten each text once more).
  return { whole: whole ? whole + '}' : '{}', keyed: keyed ? keyed + '}' : '{}' };
}

// Canonical JSON already written for an object, so that a request's hash and its stored row share
// one serialisation instead of two.
const written = new WeakMap<object, string>();

/** Remember the canonical JSON of an object that will not change afterwards (a request on its way to the store). */
export function keepJson(value: object, text: string): void {
  written.set(value, text);
}

/** The JSON text of a value: the canonical text kept for it, else JSON.stringify. Both parse to equal values. */
export function jsonText(value: unknown): string {
  return (value !== null && typeof value === 'object' ? written.get(value) : undefined) ?? JSON.stringify(value);
}

/** Hex SHA-256 of the canonical JSON of a value, cut to `length` hex digits. */
export function contentHash(value: unknown, length = 16): string {
  return sha256Hex(canonicalJson(value), length);
}

// The one-shot crypto.hash (Node >= 20.12) skips the Hash object, and its hex output skips the
// Buffer a digest would allocate (the Buffer was half the cost); hashing runs several times per trial.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/**
 * Hex SHA-256 of a UTF-8 string, its first `length` digits (all 64 by default). A cut hash is
 * written as a string of its own: a slice of the full digest would keep all 64 digits alive beside
 * every item, trial and call a large run holds.
 */
export function sha256Hex(text: string, length = 64): string {
  const hex = oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
  return length >= hex.length ? hex : ownPrefix(hex, length);
}

// V8 copies a slice shorter than 13 characters but makes a longer one a view that keeps its
// parent alive; joining short slices writes one flat string of its own.
const SHORT = 12;
function ownPrefix(hex: string, length: number): string {
  if (length <= SHORT) return hex.slice(0, Math.max(0, length));
  const parts: string[] = [];
  for (let i = 0; i < length; i += SHORT) parts.push(hex.slice(i, Math.min(i + SHORT, length)));
  return parts.join('');
}
