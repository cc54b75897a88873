import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/run-cli.js';

const fixtures = fileURLToPath(new URL('../validity/__fixtures__/small/', import.meta.url));

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paideia-validity-'));
  for (const f of ['ratings.csv', 'experts.csv', 'scales.csv', 'outcomes.csv', 'observations.csv', 'weights.csv']) copyFileSync(join(fixtures, f), join(dir, f));
  return dir;
}
const files = ['--ratings', 'ratings.csv', '--experts', 'experts.csv', '--scales', 'scales.csv', '--outcomes', 'outcomes.csv', '--observations', 'observations.csv', '--rater-weights', 'weights.csv'];
const fast = ['--resamples', '200', '--share-resamples', '100'];

describe('paideia validity analyze (end to end on CSV files)', () => {
  it('writes JSON with the public keys, and Markdown and HTML with the same numbers', async () => {
    const cwd = workspace();
    const json = await runCli(['validity', 'analyze', ...files, ...fast, '--format', 'json', '--out', 'out/v.json'], { cwd });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('out/v.json\n');
    const r = JSON.parse(readFileSync(join(cwd, 'out/v.json'), 'utf8'));
    for (const key of ['alignment', 'baselines', 'dependence', 'ensembles', 'robustness', 'decomposition', 'dStudy']) expect(r, key).toHaveProperty(key);
    expect(Object.keys(r.alignment[0]).slice(0, 5)).toEqual(['rater', 'prompt', 'item', 'n', 'nUnits']);
    expect(Object.keys(r.alignment[0].tauExperts)).toEqual(['tau', 'low90', 'high90', 'low95', 'high95', 'pValue', 'n']);
    expect(Object.keys(r.alignment[0])).toEqual(expect.arrayContaining(['tauExperts', 'tauOutcome', 'pearsonExperts', 'pearsonOutcome']));
    expect(Object.keys(r.alignment[0].tauOutcome)).toEqual(['tau', 'low90', 'high90', 'low95', 'high95', 'pValue', 'n']);
    expect(Object.keys(r.dStudy)).toEqual(expect.arrayContaining(['objectOfMeasurement', 'grid', 'smallestMeetingTarget']));
    expect(Object.keys(r.decomposition.squaredError.components).slice(0, 5)).toEqual(['observation', 'item', 'rater', 'prompt', 'observation:item']);
    expect(Object.keys(r.decomposition.signedError.components['observation:item'])).toEqual(expect.arrayContaining(['anovaEstimate', 'estimate', 'share']));

    const md = await runCli(['validity', 'analyze', ...files, ...fast, '--format', 'md'], { cwd });
    expect(md.code).toBe(0);
    const first = r.alignment[0];
    expect(md.stdout).toContain(`| ${first.rater} | ${first.prompt} | ${first.item} | ${first.n} |`);
    expect(md.stdout).toContain(first.tauExperts.tau.toFixed(3));
    expect(md.stdout).toContain('NOT fully crossed: 1 of');

    const html = await runCli(['validity', 'analyze', ...files, ...fast, '--format', 'html', '--out', 'v.html'], { cwd });
    expect(html.code).toBe(0);
    const page = readFileSync(join(cwd, 'v.html'), 'utf8');
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('<svg');
    expect(page).toContain(first.tauExperts.tau.toFixed(3));
  }, 120_000);

  it('escapes labels from the files in HTML', async () => {
    const cwd = workspace();
    const ratings = readFileSync(join(cwd, 'ratings.csv'), 'utf8').replaceAll(',ra,', ',"<img src=x onerror=alert(1)>",');
    writeFileSync(join(cwd, 'ratings.csv'), ratings);
    const res = await runCli(['validity', 'analyze', ...files.slice(0, 10), ...fast, '--format', 'html'], { cwd });
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('<img src=x');
    expect(res.stdout).toContain('&lt;img src=x onerror=alert(1)&gt;');
  }, 120_000);

  it('bad input exits 2 naming file, line and column, and writes nothing', async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, 'experts.csv'), 'observation,item,expert,score\no00,clarity,e1,4\no01,clarity,e1,nine\n');
    const res = await runCli(['validity', 'analyze', ...files, '--out', 'never.md'], { cwd });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('error: experts.csv:3, field "score": (column 4) expected a number, got "nine"\n');
    expect(() => readFileSync(join(cwd, 'never.md'))).toThrow();
    const flag = await runCli(['validity', 'analyze', ...files, '--format', 'pdf'], { cwd });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--format');
  }, 120_000);

  it('validity mrbench: per-dimension agreement of a judge with tutor-response annotations', async () => {
    const cwd = workspace();
    const doc = (mi: string[]) => JSON.stringify([0, 1].map(d => ({ conversation_id: `c${d}`, tutor_responses: Object.fromEntries(['A', 'B'].map((t, k) => [t, { response: 'r', annotation: { Mistake_Identification: mi[2 * d + k] } }])) })));
    writeFileSync(join(cwd, 'gold.json'), doc(['Yes', 'No', 'No', 'Yes']));
    writeFileSync(join(cwd, 'judge.json'), doc(['Yes', 'No', 'Yes', 'Yes']));
    const res = await runCli(['validity', 'mrbench', '--annotations', 'gold.json', '--judge', 'judge.json', '--format', 'json'], { cwd });
    expect(res.code).toBe(0);
    const [mi] = JSON.parse(res.stdout).dimensions;
    // No: p 1, r 1/2, F1 2/3; Yes: p 2/3, r 1, F1 0.8.
    expect(mi).toMatchObject({ dimension: 'Mistake_Identification', n: 4, accuracy: 0.75 });
    expect(mi.macroF1).toBeCloseTo((2 / 3 + 0.8) / 2, 12);
  }, 120_000);
});
