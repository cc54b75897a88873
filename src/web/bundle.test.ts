import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM, type MiniDocument, type MiniElement } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env, Store } from '../core/index.js';
import { openAIChatBody, startOpenAICompatibleServer, type FakeServer } from '../providers/testing/fake-servers.js';
import { startRun, type RunConfig } from '../runs.js';
import { openStore } from '../store/index.js';
import { renderRunBundle } from './bundle.js';
import { runCharts, type RunCharts } from './results-charts.js';
import { makeChartRuns, XSS, type ChartRuns } from './testing/chart-runs.js';
import { writeMiniSuite } from './testing/harness.js';

// Real runs against scripted servers: a suite of three models (its items' ids hostile markup; model b
// answers with markup), a scenario run of two tutors on three rubric dimensions, a rating study and
// a learning run; then a suite run whose model name, and a scenario run whose dimension, is markup.
const HOSTILE_MODEL = `openai:<img src=x onerror="window.__xss=4">`;
const HOSTILE_DIMENSION = '<svg onload="window.__xss=5"></svg>Engagement';
let dir: string;
let store: Store;
let model: FakeServer;
let R: ChartRuns;
let hostileSuite: string;
let hostileScenario: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paideia-bundle-'));
  writeMiniSuite(dir, i => `item-${i} <script>window.__xss=6</script>`);
  store = await openStore(`sqlite:${join(dir, 'p.db')}`);
  model = await startOpenAICompatibleServer(req => ({ body: openAIChatBody({ text: (req.body as { model: string }).model === 'fake-a' ? 'himself' : `${XSS} himself?` }) }));
  const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.baseURL };
  R = await makeChartRuns(store, dir, env);
  const finish = async (config: RunConfig, e: Env = env) => (await startRun(config, { store, env: e }).done).runId;
  hostileSuite = await finish({ kind: 'suite', suites: [join(dir, 'suites/mini')], models: ['openai:fake-a', HOSTILE_MODEL], repeats: 1 } as RunConfig);
  const file = join(dir, 'hostile.yaml');
  writeFileSync(file, readFileSync(R.scenario.file, 'utf8').replace('dimension: Engagement', `dimension: ${JSON.stringify(HOSTILE_DIMENSION)}`));
  hostileScenario = await finish({ kind: 'scenario', file, models: ['tutor=openai:tutor-b'] } as RunConfig, R.scenario.env);
}, 300_000);
afterAll(async () => {
  await R?.close();
  await model?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const noRedaction = (s: string) => s;
async function bundleOf(runId: string): Promise<{ html: string; doc: MiniDocument; charts: RunCharts }> {
  const html = (await renderRunBundle(store, runId, noRedaction))!;
  return { html, doc: new JSDOM(html).window.document, charts: await runCharts(store, (await store.getRun(runId))!) };
}
const cells = (doc: MiniDocument, selector: string) => [...doc.querySelectorAll(`${selector} tbody tr`)].map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent ?? ''));
const f = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? '–' : v.toFixed(digits));
const iv = (x: { low: number | null; high: number | null }) => (x.low === null ? '–' : `${f(x.low)} – ${f(x.high)}`);
const titles = (doc: MiniDocument, selector: string) => [...doc.querySelectorAll(selector)].map(t => t.textContent ?? '');

describe('a run\'s static bundle holds its kind\'s figures, as SVG from runCharts\'s numbers, each with its table', () => {
  it('suite run: a forest of the paired differences with the overlap warning', async () => {
    const { doc, charts } = await bundleOf(R.suite);
    expect(charts.comparisons.some(c => c.overlap)).toBe(true);
    expect(cells(doc, 'figure.forest table.differences')).toEqual(charts.comparisons.map(c => [c.scope, c.a, c.b, String(c.n), f(c.difference), iv(c), c.note ?? '–']));
    const drawn = charts.comparisons.filter(c => c.difference !== null);
    // One mark per drawn pair, an amber diamond where the intervals overlap, each titled with its numbers.
    expect(doc.querySelectorAll('figure.forest svg circle.fd').length).toBe(drawn.filter(c => !c.overlap).length);
    expect(doc.querySelectorAll('figure.forest svg path.fw').length).toBe(drawn.filter(c => c.overlap).length);
    expect(titles(doc, 'figure.forest svg g > title')).toEqual(drawn.map(c => `${c.scope}: ${c.a} − ${c.b}: ${f(c.difference)} [${iv(c)}], n ${c.n}${c.note ? `; ${c.note}` : ''}`));
    expect(doc.querySelectorAll('figure.radar').length).toBe(0);
  });

  it('scenario run: a radar by rubric dimension per model, and the paired difference', async () => {
    const { doc, charts } = await bundleOf(R.duo);
    const radar = charts.radar!;
    expect(radar.axes).toEqual(['Clarity', 'Accuracy', 'Engagement']);
    expect(cells(doc, 'figure.radar table.radar-table')).toEqual(radar.models.flatMap(m => radar.axes.map(a => {
      const d = m.dimensions[a]!;
      return [m.model, a, f(d.mean), iv(d), String(d.n)];
    })));
    // Four rings, then one polygon per model titled with its means.
    expect(doc.querySelectorAll('figure.radar svg polygon').length).toBe(4 + radar.models.length);
    expect(titles(doc, 'figure.radar svg polygon > title')).toEqual(radar.models.map(m => `${m.model}: ${radar.axes.map(a => `${a} ${f(m.dimensions[a]!.mean)}`).join(', ')}`));
    expect(cells(doc, 'figure.forest table.differences')).toEqual(charts.comparisons.map(c => ['score', c.a, c.b, String(c.n), f(c.difference), iv(c), c.note]));
    // Its judges' alignment: no experts imported, so the notes say why.
    expect(titles(doc, 'p.note')).toEqual(charts.tau!.notes);
  });

  it('rating study: tau with experts against tau with the outcome, per item', async () => {
    const { doc, charts } = await bundleOf(R.study);
    const tau = charts.tau!;
    const text = (t: { tau: number; low90: number; high90: number } | null) => (t && Number.isFinite(t.tau) ? `${f(t.tau)} [${f(t.low90)}, ${f(t.high90)}]` : '–');
    const items = [...new Set(tau.alignment.map(a => a.item))].sort();
    expect(items.length).toBeGreaterThan(0);
    expect(doc.querySelectorAll('figure.tau svg').length).toBe(items.length);
    expect([...doc.querySelectorAll('figure.tau table.tau-table')].map(t => [...t.querySelectorAll('tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))))
      .toEqual(items.map(item => tau.alignment.filter(a => a.item === item).map(a => [`${a.rater}/${a.prompt}`, 'rater × prompt', String(a.n), text(a.tauExperts), String(a.nUnits), text(a.tauOutcome), String(a.unscored)])));
  });

  it('learning run: gains per generator and D1/D2 against gain per deck', async () => {
    const { doc, charts } = await bundleOf(R.learning);
    const l = charts.learning!;
    const labels = { pre: 'pretest', post: 'posttest', gain: 'gain (post − pre)', near: 'near transfer', far: 'far transfer' } as const;
    expect(cells(doc, 'figure.gain table.gain-table')).toEqual(l.generators.flatMap(g => (['pre', 'post', 'gain', 'near', 'far'] as const).map(k => [g.name, labels[k], f(g[k].mean), iv(g[k]), String(g[k].n)])));
    expect(l.generators.find(g => g.name === 'good')!.gain.mean).toBe(1);
    // One bar per generator with a gain.
    expect(doc.querySelectorAll('figure.gain svg rect').length).toBe(l.generators.filter(g => g.gain.mean !== null).length);
    for (const dim of ['d1', 'd2'] as const) {
      expect(l.decks[dim].length).toBeGreaterThan(0);
      expect(cells(doc, `figure.scatter-${dim} table.${dim}-table`)).toEqual(l.decks[dim].map(p => [p.label, f(p.x, 2), f(p.y)]));
      expect(titles(doc, `figure.scatter-${dim} svg circle > title`)).toEqual(l.decks[dim].map(p => `${p.label}: (${p.x.toFixed(2)}, ${p.y.toFixed(2)})`));
    }
  });
});

// What a bundle may hold: these elements, no attribute that runs or fetches anything.
const ELEMENTS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'h3', 'p', 'a', 'strong', 'pre', 'section', 'details', 'summary', 'table', 'caption', 'thead', 'tbody', 'tr', 'th', 'td',
  'figure', 'figcaption', 'svg', 'g', 'line', 'circle', 'rect', 'polygon', 'polyline', 'path', 'text', 'tspan']);
const ATTRIBUTES = new Set(['lang', 'charset', 'http-equiv', 'content', 'href', 'id', 'class', 'scope', 'xmlns', 'viewbox', 'width', 'height', 'role', 'aria-label', 'points', 'fill', 'fill-opacity', 'stroke', 'stroke-width',
  'x', 'y', 'x1', 'x2', 'y1', 'y2', 'cx', 'cy', 'r', 'd', 'font-size', 'text-anchor', 'transform']);

function executable(doc: MiniDocument): string[] {
  const found: string[] = [];
  for (const el of doc.querySelectorAll('*') as Iterable<MiniElement>) {
    const tag = el.nodeName.toLowerCase();
    if (!ELEMENTS.has(tag)) found.push(`<${tag}>`);
    for (const name of el.getAttributeNames()) if (!ATTRIBUTES.has(name.toLowerCase())) found.push(`${tag}[${name}]`);
    const href = el.getAttribute('href');
    if (href !== null && !href.startsWith('#')) found.push(`${tag}[href=${href}]`);
  }
  return found;
}

describe('everything a run wrote stays text in its bundle', () => {
  it('plants markup in model names, item ids, dimension names and outputs: no element or attribute of it, the payload shown as text', async () => {
    const suite = await bundleOf(hostileSuite);
    const scenario = await bundleOf(hostileScenario);
    expect(suite.charts.comparisons.map(c => c.b)).toContain(HOSTILE_MODEL);
    expect(scenario.charts.radar!.axes).toContain(HOSTILE_DIMENSION);
    for (const { html, doc } of [suite, scenario, await bundleOf(R.suite), await bundleOf(R.learning)]) {
      expect(executable(doc)).toEqual([]);
      expect([...doc.querySelectorAll('meta[http-equiv=Content-Security-Policy]')].map(m => m.getAttribute('content'))).toEqual(["default-src 'none'; style-src 'unsafe-inline'; img-src data:"]);
      expect(html).not.toMatch(/<script|<img|<svg onload/i);
    }
    // Each payload is there, as text: in the forest's labels and table, the radar's axis titles and table, the trials and calls.
    const body = (d: MiniDocument) => d.body.textContent ?? '';
    expect(body(suite.doc)).toContain(HOSTILE_MODEL);
    expect(titles(suite.doc, 'figure.forest svg text').filter(t => t.startsWith('exercises: openai:fake-a − openai:<img src='))).toHaveLength(1);
    expect(cells(suite.doc, 'table.differences').some(r => r[2] === HOSTILE_MODEL)).toBe(true);
    expect(body(suite.doc)).toContain('item-0 <script>window.__xss=6</script>');
    expect(body(suite.doc)).toContain(XSS);
    expect(titles(scenario.doc, 'figure.radar svg text > title')).toContain(HOSTILE_DIMENSION);
    expect(cells(scenario.doc, 'table.radar-table').filter(r => r[1] === HOSTILE_DIMENSION)).toHaveLength(1);
    expect(body(scenario.doc)).toContain(XSS);
  });
});
