import { MetricInputError } from './errors.js';

/** Which normalisation steps `normalizeAnswer` applies. Every step is on by default except the last. */
export interface NormalizeOptions {
  /** Unicode NFC, so a precomposed `á` equals `a` + combining acute. Default true. */
  nfc?: boolean;
  /**
   * Locale-independent `toLowerCase()`. Default true. Caveats: Turkish/Azeri dotless ı and dotted İ
   * are not handled the Turkish way (`I` becomes `i`, `İ` becomes `i` + U+0307); this is lowercasing,
   * not full case folding, so `ß` does not equal `ss`; Greek final sigma follows its position.
   */
  caseFold?: boolean;
  /** Map the apostrophe look-alikes ’ ‘ ʼ ` ´ to the ASCII apostrophe '. Default true. */
  apostrophes?: boolean;
  /** Remove whitespace at both ends. Default true. */
  trim?: boolean;
  /** Replace every run of whitespace inside the text with one space. Default true. */
  collapseSpaces?: boolean;
  /**
   * Remove one full stop at the very end (after trimming), but not one that ends an ellipsis `..`.
   * Default false: in most tests the full stop is part of the answer.
   */
  stripTrailingFullStop?: boolean;
}

/** The defaults of `normalizeAnswer`, spelled out. */
export const DEFAULT_NORMALIZE_OPTIONS: Readonly<Required<NormalizeOptions>> = Object.freeze({
  nfc: true, caseFold: true, apostrophes: true, trim: true, collapseSpaces: true, stripTrailingFullStop: false,
});

const APOSTROPHES = /[\u2019\u2018\u02bc`\u00b4]/g;

/** Options merged over the defaults; unknown keys or non-boolean values throw MetricInputError. */
export function resolveNormalizeOptions(options: NormalizeOptions = {}): Required<NormalizeOptions> {
  const o = { ...DEFAULT_NORMALIZE_OPTIONS };
  for (const [k, v] of Object.entries(options)) {
    if (!(k in DEFAULT_NORMALIZE_OPTIONS)) {
      throw new MetricInputError(`Unknown normalisation option "${k}". Known: ${Object.keys(DEFAULT_NORMALIZE_OPTIONS).join(', ')}.`);
    }
    if (v === undefined) continue;
    if (typeof v !== 'boolean') throw new MetricInputError(`Normalisation option "${k}" must be true or false, got ${JSON.stringify(v)}.`);
    o[k as keyof NormalizeOptions] = v;
  }
  return o;
}

/**
 * The answer in the form exact-match marking compares: NFC, lowercased, apostrophe variants unified,
 * inner whitespace runs collapsed to one space and outer whitespace trimmed (each switchable; see
 * NormalizeOptions), optionally without one trailing full stop. Steps run in that order, so a full
 * stop is found even after trailing spaces. An empty or all-whitespace text becomes `''` with the
 * defaults. No reference implementation: this is Paideia's own convention, pinned by its tests.
 */
export function normalizeAnswer(text: string, options: NormalizeOptions = {}): string {
  return normalizeWith(text, resolveNormalizeOptions(options));
}

/** `normalizeAnswer` with options already resolved (for per-token use in hot loops). */
export function normalizeWith(text: string, o: Required<NormalizeOptions>): string {
  let s = o.nfc ? text.normalize('NFC') : text;
  if (o.apostrophes) s = s.replace(APOSTROPHES, "'");
  if (o.caseFold) s = s.toLowerCase();
  if (o.collapseSpaces) s = s.replace(/\s+/g, ' ');
  if (o.trim) s = s.trim();
  if (o.stripTrailingFullStop && s.endsWith('.') && !s.endsWith('..')) {
    s = s.slice(0, -1);
    if (o.trim) s = s.trimEnd();
  }
  return s;
}

/** Result of `matchesAccepted`. */
export interface AcceptedMatch {
  /** True when the normalised answer equals some normalised accepted answer. */
  matched: boolean;
  /** Index in `accepted` of the first match, or null. */
  acceptedIndex: number | null;
  /** The answer after normalisation, to store beside the mark. */
  normalizedAnswer: string;
}

/**
 * Whether `answer` equals any of `accepted` once both are normalised the same way (see
 * `normalizeAnswer`). The first matching index is returned. Edge cases: an empty `accepted` list
 * matches nothing; an empty or all-whitespace answer normalises to `''` and so matches only an
 * accepted answer that is itself empty or all-whitespace.
 */
export function matchesAccepted(answer: string, accepted: readonly string[], options: NormalizeOptions = {}): AcceptedMatch {
  const o = resolveNormalizeOptions(options);
  const normalizedAnswer = normalizeWith(answer, o);
  const i = accepted.findIndex(a => normalizeWith(a, o) === normalizedAnswer);
  return { matched: i >= 0, acceptedIndex: i >= 0 ? i : null, normalizedAnswer };
}
