import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learningReport } from '../learning/report/index.js';
import { openAIChatBody } from '../providers/testing/fake-servers.js';
import { buildReportData } from '../report/index.js';
import { deckPoints } from '../report/learning/html.js';
import { scenarioReport } from '../scenarios/index.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { analyze, tableFromRun } from '../validity/index.js';
import { makeChartRuns, XSS, type ChartRuns } from './testing/chart-runs.js';
import { axeViolations, MAX_DIFF_SHARE, screenshotDiff } from './testing/page-checks.js';
import { problems, SECRET_KEY, startHarness, type Harness } from './testing/harness.js';

// Model a is always right; model b answers with hostile markup, never right.
let H: Harness;
let R: ChartRuns;
beforeAll(async () => {
  H = await startHarness(req => ({ body: openAIChatBody({ text: (req.body as { model: string }).model === 'fake-a' ? 'himself' : `${XSS} himself?`, usage: { prompt_tokens: 40, completion_tokens: 8 } }) }));
  R = await makeChartRuns(H.store, H.dir, { OPENAI_API_KEY: SECRET_KEY, OPENAI_BASE_URL: H.model.baseURL });
}, 240_000);
afterAll(async () => { await R?.close(); await H?.close(); });

/** The report's numbers as the pages write them. */
const f = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? '–' : v.toFixed(digits));
const iv = (x: { low: number | null; high: number | null }) => (x.low === null ? '–' : `${f(x.low)} – ${f(x.high)}`);
const cells = (table: Locator) => table.locator('tbody tr').evaluateAll(rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent ?? '')));

/** No script error, no WCAG A/AA violation, no key, no planted markup run, the layout as committed (scrolled to `at`). */
async function checkPage(page: Page, name: string, at?: Locator): Promise<void> {
  expect(problems).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  expect(await page.content()).not.toContain(SECRET_KEY);
  expect(await page.evaluate('window.__xss')).toBeUndefined();
  expect(await page.locator('main script, main img[onerror], main svg[onload]').count()).toBe(0);
  if (at) await at.evaluate(el => el.scrollIntoView({ block: 'start' }));
  expect(await screenshotDiff(H.browser, page, name)).toBeLessThanOrEqual(MAX_DIFF_SHARE);
}

describe('the report figures in Chromium, each with its table of the report\'s numbers', () => {
  it('suite run: paired differences as a forest plot with the overlap warning, the table the report\'s comparisons', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${R.suite}`);
    const table = page.locator('table.differences');
    await table.waitFor();
    const report = await buildReportData(H.store, R.suite, { tests: BUILT_IN_TESTS });
    expect(report.comparisons.some(c => c.warning !== null)).toBe(true);
    expect(await cells(table)).toEqual(report.comparisons.map(c => [c.language ? `${c.test} · ${c.language}` : c.test, c.a, c.b, String(c.n), f(c.difference), iv(c), c.warning ?? '–']));
    expect(await page.locator('figure.forest svg[role=img] circle, figure.forest svg[role=img] path').count()).toBeGreaterThanOrEqual(report.comparisons.length);
    await page.context().close();
  });

  it('scenario run: radar by rubric dimension per model and the paired difference, from the scenario report', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${R.duo}`);
    await page.locator('table.radar-table').waitFor();
    const report = await scenarioReport(H.store, R.duo);
    expect(report.radar.axes).toEqual(['Clarity', 'Accuracy', 'Engagement']);
    expect(await cells(page.locator('table.radar-table'))).toEqual(report.models.flatMap(m => report.radar.axes.map(a => {
      const d = m.dimensions[a]!;
      return [m.model, a, f(d.mean), iv(d), String(d.n)];
    })));
    expect(await page.locator('figure.radar svg polygon').count()).toBe(4 + report.models.length);
    expect(await cells(page.locator('table.differences'))).toEqual(report.comparisons.map(c => ['score', c.a, c.b, String(c.n), f(c.difference), iv(c), c.note]));
    expect(report.comparisons[0]!.note).toMatch(/overlap: this report does not show which is better/);
    // Its judges against experts, as the report's judge-validity section: none attached yet, and the page says so.
    const judges = analyze(await tableFromRun(H.store, R.duo, {}), { shareResamples: 100 });
    expect(await page.locator('#report-tau ~ div p.note').allTextContents()).toEqual(judges.notes);
    expect(await page.locator('table.tau-table tbody tr').count()).toBe(judges.alignment.length + judges.baselines.length);
    await checkPage(page, 'charts-scenario', page.locator('#report-radar'));

    // The second tutor's hostile answer, on its trial page, is text.
    const trial = (await H.store.listTrials(R.duo)).find(t => t.modelAlias === 'openai:tutor-b' && !t.target)!;
    await page.goto(`${H.server.url}/runs/${R.duo}/trials/${trial.id}`);
    await page.locator('.answer pre').first().waitFor();
    expect(await page.locator('.answer pre').first().textContent()).toContain(XSS);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    await page.context().close();
  });

  it('validity study: tau with experts against tau with the outcome, with the files analyze takes chosen on the page', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${R.study}`);
    await page.locator('table.tau-table').first().waitFor();
    // Stored ratings alone: no experts, so the table has rows but no tau, and says why.
    expect(await page.locator('p.note').allTextContents()).toContain('No outcomes were given (--outcomes): tau with the outcome, slopes and the quartile test are not computed.');
    expect((await cells(page.locator('table.tau-table').first())).every(r => r[3] === '–')).toBe(true);

    // A bad file: the analysis' own message, naming the file.
    await page.getByLabel('Outcomes (unit,outcome)').setInputFiles({ name: 'bad-outcomes.csv', mimeType: 'text/csv', buffer: Buffer.from('unit,outcome\nt01,lots\n') });
    await page.getByRole('button', { name: 'Analyse with these files' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'bad-outcomes.csv' }).count()).toBeGreaterThan(0);
    // Each problem is said once: a list item, not also a line above it.
    const said = await page.getByRole('alert').filter({ hasText: 'bad-outcomes.csv' }).textContent();
    expect(said!.split('bad-outcomes.csv').length - 1).toBe(1);
    // The browser logs that 400 answer; it is the one expected here.
    expect(problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);

    for (const [key, label] of [['experts', 'Experts'], ['outcomes', 'Outcomes'], ['observations', 'Observations']] as const) {
      await page.getByLabel(new RegExp(`^${label} \\(`)).setInputFiles({ name: `${key}.csv`, mimeType: 'text/csv', buffer: readFileSync(R.files[key]) });
    }
    await page.getByRole('button', { name: 'Analyse with these files' }).click();
    const report = analyze(await tableFromRun(H.store, R.study, R.files), { shareResamples: 100 });
    const tau = (t: { tau: number; low90: number; high90: number } | null) => (t && Number.isFinite(t.tau) ? `${f(t.tau)} [${f(t.low90)}, ${f(t.high90)}]` : '–');
    for (const item of ['accuracy', 'clarity']) {
      const table = page.locator('table.tau-table', { has: page.locator('caption', { hasText: `Item ${item}:` }) });
      await expect.poll(async () => (await cells(table))[0]?.[3]).not.toBe('–');
      const rows = report.alignment.filter(a => a.item === item).map(a => [`${a.rater}/${a.prompt}`, 'rater × prompt', String(a.n), tau(a.tauExperts), String(a.nUnits), tau(a.tauOutcome), String(a.unscored)]);
      const base = report.baselines.filter(b => b.item === item).map(b => [b.name, `baseline (${b.kind})`, '–', b.kind === 'experts' ? '1 (by definition)' : tau(b.tauExperts), '–', tau(b.tauOutcome), '–']);
      expect(await cells(table)).toEqual([...rows, ...base]);
      expect(rows.filter(r => r[5] !== '–').length).toBeGreaterThanOrEqual(5);
    }
    // One point per rater x prompt with both taus, one square per baseline.
    const placed = report.alignment.filter(a => a.item === 'clarity' && a.tauExperts && a.tauOutcome && Number.isFinite(a.tauExperts.tau) && Number.isFinite(a.tauOutcome.tau)).length;
    expect(await page.locator('figure.tau').nth(1).locator('svg circle').count()).toBe(placed);
    await checkPage(page, 'charts-validity', page.locator('#report-tau'));
    await page.context().close();
  });

  it('learning run: gains per generator and D1/D2 against gain; a deck\'s slides beside its judgments and answers', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/runs/${R.learning}`);
    await page.locator('table.gain-table').waitFor();
    const { report, data } = await learningReport(H.store, R.learning);
    const labels = { pre: 'pretest', post: 'posttest', gain: 'gain (post − pre)', near: 'near transfer', far: 'far transfer' } as const;
    expect(await cells(page.locator('table.gain-table'))).toEqual(Object.entries(report.generators).flatMap(([name, g]) =>
      (['pre', 'post', 'gain', 'near', 'far'] as const).map(k => [name, labels[k], f(g[k].mean), iv(g[k]), String(g[k].n)])));
    for (const dim of ['d1', 'd2'] as const) {
      expect(await cells(page.locator(`table.${dim}-table`))).toEqual(deckPoints(data, dim).map(p => [p.label, f(p.x, 2), f(p.y)]));
    }
    expect(report.generators['good']!.gain.mean).toBe(1);
    // Every deck's label lies inside its plot, a deck rated 5 included (its label is drawn to the left).
    for (const dim of ['d1', 'd2'] as const) {
      const outside = await page.locator(`figure.scatter-${dim} svg`).first().evaluate(svg => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect()).filter(r => r.left < box.left - 0.5 || r.right > box.right + 0.5).length;
      });
      expect(outside).toBe(0);
    }
    await checkPage(page, 'charts-learning', page.locator('#report-learning'));

    // The poor deck's page: its slides are the stored PNGs, beside the judge's reasons and the learner's marked answers.
    const deck = [...data.decks.values()].map(d => d[0]!).find(d => d.generator.alias === 'poor' && d.status === 'ok')!;
    await page.goto(`${H.server.url}/runs/${R.learning}/trials/${deck.trialId}`);
    await page.locator('.slides img').first().waitFor();
    const slides = deck.status === 'ok' ? deck.slides : [];
    expect(await page.locator('.slides img').count()).toBe(slides.length);
    await expect.poll(() => page.locator('.slides img').evaluateAll(imgs => imgs.map(i => (i as unknown as { naturalWidth: number }).naturalWidth))).toEqual(slides.map(() => 1280));
    const judgments = await cells(page.locator('table.deck-judgments'));
    expect(judgments.map(r => r[3])).toEqual(['2.00', '2.00']);
    expect(judgments[0]![5]).toBe(`thin ${XSS}`);
    const answers = await cells(page.locator('table.answers').first());
    const learner = data.learners.find(l => l.record.deck === deck.trialId)!;
    expect(answers).toEqual(learner.record.answers.map((a, i) => [a.phase, a.prompt, a.answer ?? a.reason ?? 'no answer', learner.marks[i]!.correct ? 'right' : 'wrong']));
    expect(answers.some(r => r[2] === XSS)).toBe(true);
    await checkPage(page, 'trial-deck');
    await page.context().close();
  });

  it('serves a slide only to its own run, as a PNG under the CSP', async () => {
    const { data } = await learningReport(H.store, R.learning);
    const deck = [...data.decks.values()].map(d => d[0]!).find(d => d.status === 'ok')!;
    const hash = deck.status === 'ok' ? deck.slides[0]!.png!.hash : '';
    const own = await fetch(`${H.server.url}/api/runs/${R.learning}/blobs/${hash}`);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(own.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(Buffer.from(await own.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    // The same blob asked through another run, and the deck's HTML blob through its own run: not slides of them.
    expect((await fetch(`${H.server.url}/api/runs/${R.suite}/blobs/${hash}`)).status).toBe(404);
    const html = deck.status === 'ok' ? deck.html.hash : '';
    expect((await fetch(`${H.server.url}/api/runs/${R.learning}/blobs/${html}`)).status).toBe(404);
    expect((await fetch(`${H.server.url}/api/runs/${R.learning}/blobs/..%2F..%2Fetc`)).status).toBe(404);
  });

  it('compare page: each run\'s paired differences with the overlap warning, run by run', async () => {
    const page = await H.page();
    await page.goto(`${H.server.url}/compare?runs=${R.suite},${R.duo}`);
    await expect.poll(() => page.locator('table.differences').count()).toBe(2);
    const suite = await buildReportData(H.store, R.suite, { tests: BUILT_IN_TESTS });
    const duo = await scenarioReport(H.store, R.duo);
    expect((await cells(page.locator('table.differences').nth(0))).map(r => r[6])).toEqual(suite.comparisons.map(c => c.warning ?? '–'));
    expect((await cells(page.locator('table.differences').nth(1))).map(r => r[6])).toEqual(duo.comparisons.map(c => c.note));
    await checkPage(page, 'charts-compare', page.locator('#run-0-differences'));
    await page.context().close();
  });
});
