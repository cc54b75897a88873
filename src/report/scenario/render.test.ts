import { describe, expect, it } from 'vitest';
import { scenarioReport, type ScenarioReport } from '../../scenarios/report.js';
import { analysisRun } from '../../scenarios/testing/analysis-run.js';
import { openStore } from '../../store/index.js';
import { renderScenarioHtml } from './html.js';
import { renderScenarioReport } from './markdown.js';
import { radarSvg, wrapLabel } from './radar.js';

const EVIL = '<script>alert("x")</script> & | pipe\nnewline';

async function hostileReport(): Promise<ScenarioReport> {
  const store = await openStore('sqlite::memory:');
  const r = await scenarioReport(store, await analysisRun(store));
  await store.close();
  // Every string a file or a model could choose, made hostile.
  r.scenario = EVIL;
  r.models[0]!.model = EVIL;
  r.radar.axes[0] = EVIL;
  r.radar.series[0]!.model = EVIL;
  r.judges[0]!.judge = EVIL;
  r.judges[0]!.family = EVIL;
  // A judge's answer can be the reason it is unscored.
  r.judges[0]!.unscoredReasons = [{ reason: EVIL, count: 2 }];
  return r;
}

describe('report rendering', () => {
  it('HTML: one self-contained page, no script, every string escaped, an inline SVG radar', async () => {
    const html = renderScenarioHtml(await hostileReport());
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    // Nothing loads from elsewhere; links stay within the page (a dialogue's transcript).
    expect(html).not.toMatch(/\bsrc=/i);
    expect(html).not.toMatch(/\bhref="(?!#d-[0-9a-f]+")/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; | pipe');
    expect(html).toMatch(/<svg [^>]*role="img"/);
    expect((html.match(/<polygon [^>]*fill-opacity/g) ?? []).length).toBe(2);
    expect(html).toContain('<h2>Judges</h2>');
    expect(html).toContain('house-judge-v1');
    expect(html).toContain('<h3>Unscored judgments</h3>');
    expect(html).toMatch(/<td>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; \| pipe\nnewline<\/td><td class="n">2<\/td>/);
  });

  it('HTML: a Content-Security-Policy that forbids scripts, as the suite report has, and no <script', async () => {
    const html = renderScenarioHtml(await hostileReport());
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<body>'));
    expect(html).not.toMatch(/<script/i);
  });

  it('Markdown: pipes, line breaks and HTML in names cannot break the tables or render', async () => {
    const md = renderScenarioReport(await hostileReport());
    expect(md).not.toContain('<script');
    const modelRow = md.split('\n').find(l => l.startsWith('| &lt;script&gt;'))!;
    expect(modelRow).toContain('&amp; \\| pipe newline');
    expect(md).toContain('## Judges');
    expect(md).toContain('### Unscored judgments');
    const unscored = md.slice(md.indexOf('### Unscored judgments')).split('\n').find(l => l.endsWith(' | 2 |'))!;
    expect(unscored.match(/&lt;script&gt;alert/g)).toHaveLength(2);
    // Every table row has as many cells as its header.
    for (const block of md.split('\n\n').filter(b => b.startsWith('|'))) {
      const rows = block.split('\n').filter(Boolean);
      const cells = (l: string) => l.replace(/\\\|/g, '').split('|').length;
      for (const r of rows) expect(cells(r), r).toBe(cells(rows[0]!));
    }
  });

  it('Markdown: every table has as many cells in each row (header and separator included), even with no dimension column', async () => {
    const store = await openStore('sqlite::memory:');
    const base = await scenarioReport(store, await analysisRun(store));
    await store.close();
    const noAxes: ScenarioReport = { ...base, radar: { axes: [], series: base.radar.series.map(x => ({ ...x, values: [] })) }, models: base.models.map(m => ({ ...m, dimensions: {} })) };
    const withHuman: ScenarioReport = {
      ...base,
      human: {
        raters: [{ rater: 'ann', outputs: 3 }],
        agreement: [{ judge: 'panel', dimension: null, n: 3, kendallTauB: 0.5, kendallP: 0.2, icc: 0.4, iccLow: 0.1, iccHigh: 0.8, meanDeviation: base.models[0]!.score } as never],
        reliability: [{ dimension: null, alpha: 0.7, low: 0.5, high: 0.9, n: 3, k: 2 } as never],
      },
    };
    // Cells of a row: split on pipes that are not escaped, without the outer ones.
    const cells = (l: string) => l.replace(/\\\|/g, 'x').split('|').length - 2;
    // The agreement row: tau-b 0.5 (p 0.2), ICC 0.4 [0.1, 0.8], as the constructed analysis says.
    expect(renderScenarioReport(withHuman)).toContain('| panel | weighted score | 3 | 0.500 (0.2000) | 0.400 [0.100, 0.800] |');
    for (const r of [noAxes, base, withHuman]) {
      const lines = renderScenarioReport(r).split('\n');
      const tables: string[][] = [];
      let current: string[] | undefined;
      for (const l of lines) {
        if (l.startsWith('|')) (current ??= (tables.push([]), tables[tables.length - 1]!)).push(l);
        else current = undefined;
      }
      expect(tables.length).toBeGreaterThanOrEqual(r === withHuman ? 4 : 2);
      for (const t of tables) {
        expect(t[1]).toMatch(/^\|(---\|)+$/);
        // No header cell is empty (an empty join of zero columns would make one).
        expect(t[0], t[0]).not.toMatch(/\|\s*\|/);
        for (const row of t) expect(cells(row), row).toBe(cells(t[0]!));
      }
    }
  });

  it('radar: long labels wrap and the view box grows to hold them, so none is cut off', () => {
    const long = 'Heuristic guidance and scaffolding of the pupil';
    const svg = radarSvg({ axes: ['Knowledge accuracy', long, 'Values integration and care', 'Creativity and originality'], series: [{ model: 'm', values: [1, 1, 1, 1] }] }, 420);
    expect(wrapLabel(long)).toEqual(['Heuristic guidance', 'and scaffolding of', 'the pupil']);
    expect(svg).toContain('<tspan x="344.4" y="210.0">Heuristic guidance</tspan>');
    const [left, top, width] = svg.match(/viewBox="(-?\d+) (-?\d+) (\d+) (\d+)"/)!.slice(1, 4).map(Number) as [number, number, number];
    // The right label starts at x = 344.4 and runs 18 characters of 7.2 px: the box must reach past it.
    expect(left + width).toBeGreaterThanOrEqual(344.4 + 18 * 7.2);
    // The left label ends at x = 75.6 and runs left by 'Creativity and' (14 characters), past 0.
    expect(left).toBeLessThanOrEqual(75.6 - 14 * 7.2);
    expect(top).toBeLessThan(0);
  });

  it('radar: one spoke per axis, values placed on the radius, missing values at the centre', () => {
    const svg = radarSvg({ axes: ['A', 'B', 'C', 'D'], series: [{ model: 'm', values: [1, 0.5, null, 0] }] }, 420);
    // Centre 210, radius 120; axis 0 points up, axis 1 right.
    expect(svg).toContain('points="210.0,90.0 270.0,210.0 210.0,210.0 210.0,210.0"');
    expect(svg).toContain('<title>m: A 1.000, B 0.500, C n/a, D 0.000</title>');
    expect((svg.match(/<line /g) ?? []).length).toBe(4);
  });

  it('counts a dialogue not finished (a stopped run\'s) as pending, in HTML and Markdown, never as running', async () => {
    const store = await openStore('sqlite::memory:');
    const r = await scenarioReport(store, await analysisRun(store));
    await store.close();
    r.models[0]!.dialogues.running = 3;
    const md = renderScenarioReport(r);
    expect(md).toContain('dialogues (ended/capped/failed/pending)');
    expect(md).toMatch(/\| \d+\/\d+\/\d+\/3 \|/);
    const html = renderScenarioHtml(r);
    expect(html).toContain('<th>pending</th>');
    expect(html).not.toMatch(/<th>running<\/th>/);
  });
});
