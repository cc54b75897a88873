import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisTable } from '../../validity/index.js';
import { withJudgeValidity } from './section.js';

const table: AnalysisTable = {
  ratings: [1, 2, 3, 4, 5, 2].map((v, i) => ({ observation: `o${i}`, item: 'clarity', rater: 'judge <a>', prompt: 'ev1', repeat: '0', score: v })),
  experts: [1, 3, 2, 5, 4, 2].map((v, i) => ({ observation: `o${i}`, item: 'clarity', expert: 'e1', score: v })),
  outcomes: new Map(), units: new Map(), scales: new Map([['clarity', { min: 1, max: 5 }]]), baselines: [], raterWeights: new Map(),
};
const report = analyze(table, { resamples: 200, shareResamples: 100 });

describe('a run report with its judges\' alignment', () => {
  it('adds the alignment rows in each format: JSON key, Markdown section, HTML section before </body> (escaped)', () => {
    const tau = report.alignment[0]!.tauExperts!.tau;
    const json = JSON.parse(withJudgeValidity('{"runId":"r"}', 'json', { experts: 'e.csv', report, analyzeCommand: 'paideia validity analyze --run r --experts e.csv --store sqlite:/x.db', howToAddOutcomes: 'run Y' })) as { runId: string; judgeValidity: { experts: string; alignment: Array<{ tauExperts: { tau: number } }> } };
    expect(json.runId).toBe('r');
    expect(json.judgeValidity.experts).toBe('e.csv');
    expect(json.judgeValidity.alignment[0]!.tauExperts.tau).toBe(tau);
    const md = withJudgeValidity('# Report\n', 'md', { experts: 'e.csv', report, analyzeCommand: 'paideia validity analyze --run r --experts e.csv --store sqlite:/x.db', howToAddOutcomes: 'run Y' });
    expect(md).toMatch(/^# Report\n\n## Judge validity\n\nJudges against the expert scores in e\.csv/);
    expect(md).toContain('The full analysis: paideia validity analyze --run r --experts e.csv --store sqlite:/x.db\n');
    expect(md).toContain(`| judge <a> | ev1 | clarity | 6 |`);
    expect(md).toContain(tau.toFixed(3));
    // the outcome is stated plainly, once, without the analysis' note about a flag this report lacks
    expect(md).toContain('No outcome (e.g. a learning gain) is attached to these judges');
    expect(md).not.toContain('No outcomes were given');
    expect(json.judgeValidity).toMatchObject({ outcomeNote: 'no outcome attached; run Y' });
    const html = withJudgeValidity('<html><body><h1>R</h1></body></html>', 'html', { experts: 'e.csv', report, analyzeCommand: 'paideia validity analyze --run r --experts e.csv --store sqlite:/x.db', howToAddOutcomes: 'run Y' });
    expect(html).toMatch(/<h1>R<\/h1><section id="judge-validity">.*<\/section>\n<\/body><\/html>$/s);
    expect(html).toContain('judge &lt;a&gt;');
    expect(html).not.toContain('judge <a>');
  });

  it('says plainly when no experts are attached, and how to attach them', () => {
    const md = withJudgeValidity('# Report\n', 'md', { experts: null, howToAttach: 'run X', howToAddOutcomes: 'run Y' });
    expect(md).toContain("No expert scores are attached, so the judges' alignment with experts is unknown; run X.");
    expect(md).toContain('No outcome (e.g. a learning gain) is attached to these judges, so their alignment with one is unknown; run Y.');
    expect(JSON.parse(withJudgeValidity('{}', 'json', { experts: null, howToAttach: 'run X', howToAddOutcomes: 'run Y' }))).toEqual({ judgeValidity: { experts: null, note: 'no expert scores attached; run X', outcomeNote: 'no outcome attached; run Y' } });
  });
});
