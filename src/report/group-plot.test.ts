import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBaselineModel } from '../providers/baseline/index.js';
import { groupPlots } from './group-plot.js';
import { renderHtml } from './html.js';
import { reportOfRun } from './testing/stored-run.js';

const english = fileURLToPath(new URL('../../data/samples/english', import.meta.url));

describe('per-group small multiples', () => {
  it('draw one panel per group field with a point and interval per value; small groups are hollow, dashed and labelled', async () => {
    const d = await reportOfRun([english], { 'baseline:copy': createBaselineModel('copy') });
    const gs = d.groups.filter(g => g.model === 'baseline:copy' && g.test === 'tutor_accuracy');
    // English tutor items are grouped per L1 like the exercises
    expect(gs.filter(g => g.field === 'l1').map(g => g.value).sort()).toEqual(['es', 'ja', 'pt', 'vi']);
    const svg = groupPlots(gs);
    const fields = [...new Set(gs.map(g => g.field))];
    expect([...svg.matchAll(/<figcaption>([^<]+)<\/figcaption>/g)].map(m => m[1])).toEqual(fields);
    expect(fields).toEqual(expect.arrayContaining(['topic', 'l1', 'evidence']));
    const scored = gs.filter(g => g.mean !== null);
    expect(svg.match(/<circle /g)).toHaveLength(scored.length);
    const small = scored.filter(g => g.small);
    expect(small.length).toBeGreaterThan(0);
    expect(svg.match(/class="pt-small"/g)).toHaveLength(small.length);
    for (const g of small) expect(svg).toContain(`(n=${g.n}, small)`);
    expect(svg).not.toMatch(/<script/i);
  });

  it('sit above each group table in the model sections of the HTML report', async () => {
    const html = renderHtml(await reportOfRun([english], { 'baseline:gold': createBaselineModel('gold') }));
    const section = html.slice(html.indexOf('<section class="model"'));
    expect(section.indexOf('<div class="multiples">')).toBeGreaterThan(0);
    expect(section.indexOf('<div class="multiples">')).toBeLessThan(section.indexOf('<th>group</th>'));
    expect(section).toContain('small group (n &lt; 10)');
  });
});
