import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from './hash.js';

describe('contentHash', () => {
  it('ignores key order at every depth', () => {
    expect(contentHash({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(contentHash({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }));
  });
  it('changes when any value changes', () => {
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
    expect(canonicalJson({ b: 1, a: undefined })).toBe('{"b":1}');
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
    ];
    for (const s of samples) expect(canonicalJson(s)).toBe(JSON.stringify(sorted(s)) ?? 'null');
    expect(canonicalJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
  });
});
