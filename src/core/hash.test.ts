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
