import { describe, expect, it } from 'vitest';
import { quoteValue, stripControl } from './text-safety.js';

describe('stripControl', () => {
  it('removes colour, cursor and title sequences and shows other controls', () => {
    const hostile = 'ok\u001b[31mred\u001b[0m \u001b]0;pwned\u0007title \u001b[2Jclear\rback\u0000nul\u009b1mC1';
    const out = stripControl(hostile);
    expect(out).toBe('okred title clear\\u{d}back\\u{0}nulC1');
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('keeps tabs, newlines and non-ASCII text', () => {
    expect(stripControl('a\tb\nc é 中文 🎉')).toBe('a\tb\nc é 中文 🎉');
  });
});

describe('quoteValue', () => {
  it('quotes short values whole', () => {
    expect(quoteValue('abc')).toBe('"abc"');
    expect(quoteValue({ a: 1 })).toBe('{"a":1}');
  });

  it('quotes a prefix of long values and says how long they were', () => {
    const big = 'x'.repeat(760_000);
    const q = quoteValue(big);
    expect(q.length).toBeLessThan(120);
    expect(q).toContain('(760000 characters)');
    expect(quoteValue([big]).length).toBeLessThan(120);
  });

  it('never splits a surrogate pair', () => {
    const q = quoteValue('a'.repeat(79) + '🎉'.repeat(10));
    expect(q).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
