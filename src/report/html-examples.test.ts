import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBaselineModel } from '../providers/baseline/index.js';
import { renderHtml } from './html.js';
import { reportOfRun } from './testing/stored-run.js';

const english = fileURLToPath(new URL('../../data/samples/english', import.meta.url));

describe('failure examples in the HTML report', () => {
  it('show the prompt the model saw, rendered by the test, not the item input as JSON', async () => {
    const d = await reportOfRun([english], { 'baseline:copy': createBaselineModel('copy') });
    const f = d.failures.find(x => x.test === 'tutor_accuracy')!;
    const sentence = (f.input as { sentence: string }).sentence;
    expect(f.prompt).toEqual([
      { role: 'system', content: expect.stringContaining('You are a patient, precise tutor of English') },
      { role: 'user', content: `Learner's sentence:\n${sentence}` },
    ]);
    const html = renderHtml(d);
    expect(html).toContain(`<pre>Learner&#39;s sentence:\n${sentence}</pre>`);
    expect(html).toContain('<details><summary>system prompt</summary>');
    expect(html).not.toContain('&quot;sentence&quot;:');
    expect(html).toContain('<th>prompt the model saw</th>');
  });

  it('wrap answers at word boundaries: a long word breaks only when it cannot fit, never mid-word in a narrow column', async () => {
    const html = renderHtml(await reportOfRun([english], { 'baseline:copy': createBaselineModel('copy') }));
    const pre = /pre\{([^}]*)\}/.exec(html)![1]!;
    expect(pre).toContain('white-space:pre-wrap');
    expect(pre).toContain('overflow-wrap:break-word');
    expect(pre).toContain('word-break:normal');
    expect(html).not.toMatch(/word-break:\s*break-(word|all)|overflow-wrap:\s*anywhere/);
  });

  it('link every model from the top of the report to its own section', async () => {
    const d = await reportOfRun([english], { 'baseline:copy': createBaselineModel('copy'), 'baseline:gold': createBaselineModel('gold') });
    const html = renderHtml(d);
    for (const m of d.models) {
      const id = `model-${m.alias.replace(':', '_3a')}`;
      expect(html).toContain(`<section class="model" id="${id}">`);
      expect(html.match(new RegExp(`href="#${id}"`, 'g'))!.length).toBeGreaterThanOrEqual(2);
    }
  });
});
