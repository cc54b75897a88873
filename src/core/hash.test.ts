import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalJson, contentHash, sha256Hex } from './hash.js';

describe('contentHash', () => {
  it('ignores key order at every depth', () => {
    expect(contentHash({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(contentHash({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }));
  });
  it('changes when any value changes', () => {
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
    expect(canonicalJson({ b: 1, a: undefined })).toBe('{"b":1}');
  });
});

describe('cut hashes', () => {
  it('are the first digits of the full SHA-256, at even and odd lengths, for odd values', () => {
    const odd = [
      { b: { z: 1, a: [{ y: 2, x: null }] }, a: '\u00e9', '10': 1, '9': 2, B: 3, _: 4, 'a b': { '': [] } },
      { x: [[1, 2], { d: -0, c: 1.5e-7, e: 'line\nbreak "q"' }] },
      'plain', 0, null,
    ];
    for (const value of odd) {
      const full = createHash('sha256').update(canonicalJson(value)).digest('hex');
      for (const n of [0, 8, 10, 12, 13, 16, 24, 25, 63, 64, 80]) expect(contentHash(value, n)).toBe(full.slice(0, n));
      expect(sha256Hex(canonicalJson(value))).toBe(full);
    }
  });
});

describe('canonicalJson', () => {
  it('equals JSON.stringify of a key-sorted copy, on nested and odd values', () => {
    const sorted = (v: unknown): unknown => Array.isArray(v) ? v.map(sorted)
      : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sorted((v as Record<string, unknown>)[k])]))
      : v;
    const samples: unknown[] = [
      { z: 1, a: [3, { y: 'é', b: null, u: undefined }, undefined], m: { '': true, 'ü': -0.5e-7 } },
      ['x', 1e21, false, [], {}], 'plain "quoted"\n', 42, null,
      // Arrays of plain values only (written natively) and with an odd one (written by hand).
      [NaN, -0, Infinity, -1e-7, '\ud800 lone', 'tab\t', true, null], ['a', undefined, () => 1, 'b'], { h: ['ff', '00'] },
    ];
    for (const s of samples) expect(canonicalJson(s)).toBe(JSON.stringify(sorted(s)) ?? 'null');
    expect(canonicalJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
  });
});

describe('canonicalJson on many keys', () => {
  it('sorts objects of any size as Array#sort does, numeric-looking and non-ASCII keys included', () => {
    const keys = ['b', 'a', '10', '9', 'é', 'Z', '', 'aa', 'a\u0000', '\ud83d\ude00', 'ｚ', '_', '1e3', 'B', 'ä'];
    for (let n = 0; n <= keys.length; n++) {
      const value = Object.fromEntries(keys.slice(0, n).map((k, i) => [k, i % 3 ? i : { [k]: i, y: [undefined, () => 1] }]));
      // Written out by hand: an object rebuilt in sorted order would still list integer keys first.
      const reference = (v: unknown): string | undefined => Array.isArray(v) ? `[${v.map(e => reference(e) ?? 'null').join(',')}]`
        : v !== null && typeof v === 'object'
          ? `{${Object.keys(v).sort().flatMap(k => { const t = reference((v as Record<string, unknown>)[k]); return t === undefined ? [] : [`${JSON.stringify(k)}:${t}`]; }).join(',')}}`
          : JSON.stringify(v);
      expect(canonicalJson(value)).toBe(reference(value));
    }
  });
});
