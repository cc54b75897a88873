// Python string semantics that sacrebleu's chrF depends on, reproduced exactly. JavaScript's `\s`
// differs from Python's str.split(): it adds U+FEFF and lacks U+001C-U+001F and U+0085.

/**
 * 1 for each BMP code point Python's `str.isspace()` accepts, which is what `str.split()` splits on;
 * every one of them is in the BMP. A table, because the branchy test costs more than the rest of
 * character extraction on accented text.
 */
export const PY_SPACE = new Uint8Array(0x10000);
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]) PY_SPACE[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) PY_SPACE[c] = 1;

/** Python's `string.punctuation`, the set sacrebleu splits off word edges for chrF++. */
const PUNCT = new Uint8Array(128);
for (const ch of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') PUNCT[ch.charCodeAt(0)] = 1;

/** True for a UTF-16 unit in Python's `string.punctuation` (all ASCII). */
export function isPunct(unit: number): boolean {
  return unit < 128 && PUNCT[unit] === 1;
}

/**
 * Appends the code points of `s` to `out` from index `at`, skipping Python whitespace unless
 * `keepSpace`, and returns the new length. Python indexes strings by code point, so a character
 * outside the BMP is one n-gram unit here, not two UTF-16 halves.
 */
export function pushCodePoints(s: string, keepSpace: boolean, out: Int32Array, at: number): number {
  let n = at;
  const len = s.length;
  const skip = keepSpace ? 0 : 1;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if ((c & 0xfc00) === 0xd800 && i + 1 < len) {
      const lo = s.charCodeAt(i + 1);
      if ((lo & 0xfc00) === 0xdc00) {
        out[n++] = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        i++;
        continue;
      }
    }
    // Branch-free: write, then advance unless it was whitespace to drop.
    out[n] = c;
    n += 1 - skip * PY_SPACE[c]!;
  }
  return n;
}
