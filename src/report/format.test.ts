import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../core/escape.js';
import { DASH, dollars, fixed, points, signedPoints } from './format.js';
import { cellText } from './markdown-cell.js';

describe('number formatters', () => {
  it('print a missing value as the mark the table uses', () => {
    for (const f of [fixed, points, signedPoints, dollars]) {
      expect(f(null)).toBe(DASH);
      expect(f(undefined)).toBe(DASH);
    }
    expect(fixed(null, 3, 'n/a')).toBe('n/a');
  });
  it('shares in points, with a sign for differences', () => {
    expect(points(0.5)).toBe('50.0');
    expect(points(0.12345)).toBe('12.3');
    expect(signedPoints(0.05)).toBe('+5.0');
    expect(signedPoints(-0.05)).toBe('-5.0');
    expect(signedPoints(0)).toBe('0.0');
  });
  it('dollars: four decimals, five below a cent so a small cost is not $0.0000', () => {
    expect(dollars(1.5)).toBe('$1.5000');
    expect(dollars(0.00004)).toBe('$0.00004');
    expect(dollars(0)).toBe('$0.0000');
    expect(fixed(2 / 3)).toBe('0.667');
  });
  it('fixed: a value that rounds to zero carries no sign; a negative one keeps it', () => {
    expect(fixed(-0.0001)).toBe('0.000');
    expect(fixed(-0)).toBe('0.000');
    expect(fixed(-0.0004, 2)).toBe('0.00');
    expect(fixed(-0.5)).toBe('-0.500');
  });
});

describe('escaping', () => {
  it('HTML: the five characters that can open markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml(null)).toBe('');
  });
  it('Markdown cells: links, images, code, emphasis, HTML, entities and pipes are shown as text', () => {
    expect(cellText('![i](http://e/x.png) [a](javascript:x) `c` *b* _e_ tutor_accuracy <b>&amp; a|b\nc'))
      .toBe('!\\[i\\](http://e/x.png) \\[a\\](javascript:x) \\`c\\` \\*b\\* \\_e\\_ tutor_accuracy &lt;b&gt;&amp;amp; a\\|b c');
  });
});
