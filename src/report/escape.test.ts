import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape.js';
import { cellText } from './markdown.js';
import { escapeHtml as scenarioHtml } from '../scenarios/render/escape.js';
import { mdCell } from '../scenarios/render/markdown.js';

const ANSI = 'ok\u001b[2J\u001b]0;owned\u0007\u001b[31mred\u0000';

describe('reports never carry terminal control sequences', () => {
  it.each([['run HTML', escapeHtml], ['run Markdown', cellText], ['scenario HTML', scenarioHtml], ['scenario Markdown', mdCell]] as const)('%s', (_name, render) => {
    const out = render(ANSI);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('red');
  });
});
