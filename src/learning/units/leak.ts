/**
 * Whether an answer shows up in a text, compared as whole words: "the man" leaks into
 * "The man is tired." but "a" does not leak into "bala". Case and Unicode form are ignored.
 */
export function wordsOf(text: string): string[] {
  // An apostrophe inside a word is a letter (vo'o, Kowi'at); around a word it is a quote mark.
  return text.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu) ?? [];
}

export function containsWords(haystack: ReadonlyArray<string>, needle: ReadonlyArray<string>): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

export function leaks(answer: string, text: string): boolean {
  return containsWords(wordsOf(text), wordsOf(answer));
}
