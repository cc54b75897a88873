import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../core/escape.js';
import { cellText } from './markdown-cell.js';

const ANSI = 'ok\u001b[2J\u001b]0;owned\u0007\u001b[31mred\u0000';

// Suite and scenario reports share these two escapes (HTML, Markdown cells).
describe('reports never carry terminal control sequences', () => {
  it.each([['HTML', escapeHtml], ['Markdown', cellText]] as const)('%s', (_name, render) => {
    const out = render(ANSI);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('red');
  });
});
