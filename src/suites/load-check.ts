import { canonicalJson, type Item } from '../core/index.js';
import { sha256Prefix } from './plan-hash.js';

/**
 * A fast path for ItemSchema: the item zod would return for a line that certainly passes it, built
 * the way zod builds it (the schema's keys first, in the schema's order, then unknown keys in the
 * order of the line), or undefined when anything is unusual. Undefined never means "bad": the
 * caller then asks zod, so every error message still comes from ItemSchema alone. Checking by hand
 * costs a fraction of zod's walk over the lazy JSON-value union of `input`.
 */
export function fastItem(value: unknown, same: Shared = (_, __, s) => s): Item | undefined {
  if (!isPlainObject(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (!isString(v.id) || !ID.test(v.id) || !isString(v.test) || !TEST.test(v.test)) return undefined;
  if (!isString(v.language) || v.language.length < 2) return undefined;
  if (!isPlainObject(v.input) || !isJsonRecord(v.input, 0)) return undefined;
  const hasAccepted = Object.hasOwn(v, 'accepted');
  const hasReferences = Object.hasOwn(v, 'references');
  if (hasAccepted && !isTextList(v.accepted)) return undefined;
  if (hasReferences && !isTextList(v.references)) return undefined;
  // The refine: a non-empty list of accepted answers or of references.
  if (!(hasAccepted && (v.accepted as unknown[]).length > 0) && !(hasReferences && (v.references as unknown[]).length > 0)) return undefined;
  const source = checkSource(v.source, same);
  if (source === undefined) return undefined;
  if (!isNonEmpty(v.licence) || !isNonEmpty(v.evidence)) return undefined;
  if (v.visibility !== 'public' && v.visibility !== 'private') return undefined;
  if (v.contamination !== 'private' && v.contamination !== 'public-source') return undefined;
  if (typeof v.human_checked !== 'boolean') return undefined;
  for (const key of OPTIONAL_TEXT) if (Object.hasOwn(v, key) && !isString(v[key])) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of ITEM_KEYS) if (Object.hasOwn(v, key)) out[key] = key === 'source' ? source : shared(v[key], key, same);
  for (const key of Object.keys(v)) if (!ITEM_SET.has(key)) out[key] = shared(v[key], key, same);
  const input = v.input as Record<string, unknown>;
  for (const key in input) input[key] = shared(input[key], key, same, INPUT);
  return out as Item;
}

/** The keys of ItemSchema's shape, in its order (zod's output follows it). */
const ITEM_KEYS = ['id', 'test', 'language', 'input', 'accepted', 'references', 'source', 'licence', 'evidence', 'visibility', 'contamination', 'human_checked', 'topic', 'level', 'l1', 'notes'];
const ITEM_SET = new Set(ITEM_KEYS);
const OPTIONAL_TEXT = ['topic', 'level', 'l1', 'notes'];
const SOURCE_KEYS = ['dataset', 'file', 'key'];
const SOURCE_SET = new Set(SOURCE_KEYS);
const ID = /^\S(.*\S)?$/s;
const TEST = /^[a-z][a-z0-9_]*$/;
const NOT_BLANK = /\S/;
/** Deeper than this, zod decides (the line reader has refused anything past 64 levels already). */
const MAX_DEPTH = 64;

const isString = (x: unknown): x is string => typeof x === 'string';
const isNonEmpty = (x: unknown): x is string => typeof x === 'string' && x.length > 0;
const TOP = 0;
const INPUT = 1;
const SOURCE = 2;
const shared = (x: unknown, field: string, same: Shared, space = TOP): unknown => (typeof x === 'string' ? same(space, field, x) : x);

/**
 * One copy of a string that repeats from one line to the next (test, language, licence, labels of
 * the input) instead of one per line as JSON.parse makes them, since a run holds every item. Each
 * field is compared with its value on the previous line only: no hashing of every string.
 */
export function sharedStrings(): Shared {
  const last = [new Map<string, string>(), new Map<string, string>(), new Map<string, string>()];
  return (space, field, s) => {
    const before = last[space]!.get(field);
    if (before === s) return before;
    last[space]!.set(field, s);
    return s;
  };
}

/** Gives a field's string, or an equal one kept from an earlier line (see sharedStrings); `space`: the item, its input or its source. */
export type Shared = (space: number, field: string, s: string) => string;

// A key named __proto__ would be copied by assignment (zod's own copy is what decides then).
function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype && !Object.hasOwn(x, '__proto__');
}

function isTextList(x: unknown): boolean {
  if (!Array.isArray(x)) return false;
  for (const s of x) if (typeof s !== 'string' || !NOT_BLANK.test(s)) return false;
  return true;
}

/** The source as zod returns it (a string, or its known keys first), or undefined. */
function checkSource(x: unknown, same: Shared): unknown {
  if (typeof x === 'string') return x.length > 0 ? x : undefined;
  if (!isPlainObject(x)) return undefined;
  if (!isNonEmpty(x.key)) return undefined;
  for (const key of ['dataset', 'file']) if (Object.hasOwn(x, key) && !isNonEmpty(x[key])) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of SOURCE_KEYS) if (Object.hasOwn(x, key)) out[key] = shared(x[key], key, same, SOURCE);
  for (const key of Object.keys(x)) if (!SOURCE_SET.has(key)) out[key] = shared(x[key], key, same, SOURCE);
  return out;
}

function isJsonValue(x: unknown, depth: number): boolean {
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return true;
  // JSON.parse gives Infinity for 1e999, which z.number() refuses.
  if (typeof x === 'number') return Number.isFinite(x);
  if (depth >= MAX_DEPTH || typeof x !== 'object') return false;
  if (Array.isArray(x)) {
    for (const e of x) if (!isJsonValue(e, depth + 1)) return false;
    return true;
  }
  return isPlainObject(x) && isJsonRecord(x, depth + 1);
}

function isJsonRecord(x: Record<string, unknown>, depth: number): boolean {
  for (const key in x) if (!isJsonValue(x[key], depth)) return false;
  return true;
}

/**
 * contentHash of an item, with its 16 digits as a string of their own rather than a slice that
 * keeps the 64-digit digest alive beside every item a run holds.
 */
export function itemHash(item: Item): string {
  return sha256Prefix(canonicalJson(item));
}
