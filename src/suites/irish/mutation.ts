/*
 * Irish initial mutations, as far as the tutor-error rules need them: find the unmutated stem of a
 * surface form so it can be looked up in BÚNaMo (which stores forms unmutated), put the same
 * mutation back on a substitute form, and lenite a past-tense verb.
 */

/** A reading of a surface form: its unmutated stem and how to mutate another stem the same way. */
export interface Reading {
  stem: string;
  mutation: 'none' | 'lenition' | 'prefix';
  apply(stem: string): string;
}

const LENITABLE = /^[bcdfgmpstBCDFGMPST]$/;
const VOWEL = /^[aeiouáéíóúAEIOUÁÉÍÓÚ]/;
// Eclipsis prefixes, each with the initials it attaches to (bhfuil, gcat, ndoras, ngeata, bpáiste, dtír, mbó, n-athair, nAthair).
const ECLIPSIS: ReadonlyArray<readonly [string, RegExp]> = [
  ['bh', /^[fF]/], ['m', /^[bB]/], ['g', /^[cC]/], ['n', /^[dDgG]/], ['b', /^[pP]/], ['d', /^[tT]/],
  ['n-', /^[aeiouáéíóú]/], ['n', /^[AEIOUÁÉÍÓÚ]/],
];
// Prefixes that are not eclipsis: t before a vowel or s (an t-uisce, an tsráid), h before a vowel (na hoibre), d' (d'ól).
const OTHER: ReadonlyArray<readonly [string, RegExp]> = [
  ['t-', /^[aeiouáéíóú]/], ['t', /^[AEIOUÁÉÍÓÚsS]/], ['h', /^[aeiouáéíóúAEIOUÁÉÍÓÚ]/], ["d'", /^([aeiouáéíóúAEIOUÁÉÍÓÚ]|[fF][hH])/], ['d’', /^([aeiouáéíóúAEIOUÁÉÍÓÚ]|[fF][hH])/],
];

function unlenite(word: string): string | undefined {
  return word.length > 2 && LENITABLE.test(word[0]!) && (word[1] === 'h' || word[1] === 'H') ? word[0]! + word.slice(2) : undefined;
}

function lenitionReading(word: string): Reading | undefined {
  const stem = unlenite(word);
  if (stem === undefined) return undefined;
  return { stem, mutation: 'lenition', apply: s => (s.length > 1 && LENITABLE.test(s[0]!) ? `${s[0]}h${s.slice(1)}` : s) };
}

/**
 * Every way to read a surface form as stem plus mutation, the unmutated reading first. Callers
 * check each stem against the token's own lemma in BÚNaMo, which rules out false readings such
 * as treating the h of `hata` as a prefix.
 */
export function readings(word: string): Reading[] {
  const out: Reading[] = [{ stem: word, mutation: 'none', apply: s => s }];
  const len = lenitionReading(word);
  if (len) out.push(len);
  for (const [prefix, next] of [...ECLIPSIS, ...OTHER]) {
    if (!word.startsWith(prefix)) continue;
    const rest = word.slice(prefix.length);
    if (rest.length < 2 || !next.test(rest)) continue;
    out.push({ stem: rest, mutation: 'prefix', apply: s => prefix + s });
    // d'fhág: the prefix and a lenited f together.
    const inner = lenitionReading(rest);
    if (inner && (prefix === "d'" || prefix === 'd’')) out.push({ stem: inner.stem, mutation: 'prefix', apply: s => prefix + inner.apply(s) });
  }
  return out;
}

/** Give `target` the capitalisation of `model`'s first letter (sentence-initial words). */
export function matchCase(model: string, target: string): string {
  if (!model || !target) return target;
  const first = model[0]!;
  return first !== first.toLowerCase() ? target[0]!.toUpperCase() + target.slice(1) : target;
}

/**
 * The lenition an independent past-tense verb takes: a lenitable consonant gets h (bhí, chonaic,
 * chuaigh), a vowel or f + vowel gets d' (d'ól, d'fhág); r, l, n and the rest are unchanged (rinne).
 */
export function lenitePast(word: string): string {
  if (VOWEL.test(word)) return `d'${word}`;
  if (/^[fF][aeiouáéíóúAEIOUÁÉÍÓÚ]/.test(word)) return `d'${word[0]}h${word.slice(1)}`;
  if (/^[sS]/.test(word) && !/^[sS][aeiouáéíóúAEIOUÁÉÍÓÚlnrLNR]/.test(word)) return word;
  if (LENITABLE.test(word[0] ?? '') && word[1] !== 'h') return `${word[0]}h${word.slice(1)}`;
  return word;
}
