import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { scenarioReportCommand, scenarioRunCommand, type ScenarioIO } from './scenario.js';

const SCENARIOS = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

function capture(): ScenarioIO & { out: string; err: string } {
  const io = { out: '', err: '', stdout: (t: string) => { io.out += t; }, stderr: (t: string) => { io.err += t; } };
  return io;
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('scenario report over several runs', () => {
  it('opens with one row per scenario and model, with every dimension, in JSON, Markdown and HTML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paideia-overview-'));
    const store = `sqlite:${join(dir, 'p.db')}`;
    const ids: string[] = [];
    for (const file of ['knowledge-explanation.yaml', 'socratic-problem-solving.yaml']) {
      const r = await scenarioRunCommand(join(SCENARIOS, file), { store, judge: true }, capture());
      expect(r.exitCode).toBe(0);
      ids.push(r.runId!);
    }
    const json = capture();
    expect(await scenarioReportCommand(ids, { store, format: 'json' }, json)).toBe(0);
    const overview = JSON.parse(json.out) as { dimensions: string[]; rows: Array<{ scenario: string; runId: string; score: { n: number; mean: number | null } }>; reports: unknown[] };
    expect(new Set(overview.rows.map(r => r.scenario))).toEqual(new Set(['knowledge_explanation', 'socratic_problem_solving']));
    expect(overview.reports).toHaveLength(2);
    expect(overview.dimensions.length).toBeGreaterThan(0);
    expect(overview.rows.every(r => r.score.n > 0 && r.score.mean !== null)).toBe(true);

    const md = capture();
    expect(await scenarioReportCommand(ids, { store, format: 'md' }, md)).toBe(0);
    const table = md.out.split('\n').filter(l => l.startsWith('|')).slice(0, 2 + overview.rows.length);
    const cells = (l: string) => l.split(/(?<!\\)\|/).length;
    expect(new Set(table.map(cells)).size).toBe(1);
    expect(md.out).toContain('# Scenario overview');

    const out = join(dir, 'overview.html');
    expect(await scenarioReportCommand(ids, { store, format: 'html', out }, capture())).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('Content-Security-Policy');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('knowledge_explanation');
    expect(html).toContain('socratic_problem_solving');
  });
});
