import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeServer } from '../providers/testing/fake-servers.js';
import { kendallTauB } from '../stats/correlation/index.js';
import { runCli } from './testing/run-cli.js';
import { docShellBlock } from './testing/doc-block.js';
import { runPasted } from './testing/run-pasted.js';
import { scriptedScore, startValidityExampleServer, TOPICS, UNREADABLE } from './testing/validity-example-server.js';

const root = new URL('../../', import.meta.url).pathname;
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(s => s.close()));
});

const experts = readFileSync(join(root, 'examples/validity/experts.csv'), 'utf8').trim().split('\n').slice(1).map(l => l.split(','));
/** The experts' mean per observation of one item, by task id. */
function expertMean(item: string): Map<string, number> {
  const sums = new Map<string, number[]>();
  for (const [obs, it, , score] of experts) if (it === item) (sums.get(obs!.split('/')[0]!) ?? sums.set(obs!.split('/')[0]!, []).get(obs!.split('/')[0]!)!).push(Number(score));
  return new Map([...sums].map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / v.length]));
}

describe('the worked example of docs/validity.md, pasted against a scripted OpenAI-compatible server', () => {
  it('runs the scenario, its judges against experts, and a study of its dialogues, every cell stored', async () => {
    const server = await startValidityExampleServer();
    servers.push(server);
    const cwd = mkdtempSync(join(tmpdir(), 'paideia-validity-example-'));
    cpSync(join(root, 'examples'), join(cwd, 'examples'), { recursive: true });
    const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key' };
    const pasted = await runPasted(docShellBlock(join(root, 'docs/validity.md'), 'worked-example'), { cwd, env });
    expect(pasted.code, pasted.stderr).toBe(0);

    const db = new Database(join(cwd, 'validity-example.db'), { readonly: true });
    const runs = db.prepare('SELECT id, kind FROM runs ORDER BY kind').all() as Array<{ id: string; kind: string }>;
    expect(runs.map(r => r.kind)).toEqual(['scenario', 'validity']);
    const study = runs.find(r => r.kind === 'validity')!.id;
    const scenario = runs.find(r => r.kind === 'scenario')!.id;
    const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
    // Every request the server got is one stored call; each rating cell is one call and one Judgment.
    expect(count('SELECT COUNT(*) AS n FROM calls')).toBe(server.requests.length);
    const raterRequests = server.requests.filter(r => (r.body as { model: string }).model.startsWith('rater')).length;
    expect(raterRequests).toBe(8 * 2 * 3 * 2);
    expect(count('SELECT COUNT(*) AS n FROM calls WHERE run_id = ?', study)).toBe(raterRequests);
    expect(count('SELECT COUNT(*) AS n FROM judgments WHERE run_id = ?', study)).toBe(raterRequests);
    const unscored = (db.prepare('SELECT body FROM judgments WHERE run_id = ?').all(study) as Array<{ body: string }>)
      .map(r => JSON.parse(r.body) as { value: number | null; raw: string; reason: string }).filter(j => j.value === null).sort((x, y) => (x.raw < y.raw ? -1 : 1));
    db.close();
    expect(unscored.map(u => u.raw)).toEqual(UNREADABLE.map(u => u.text).sort());
    expect(unscored.map(u => u.reason).join('\n')).toMatch(/outside the scale 1-5/);

    // The scenario judges' alignment: tau-b of each judge's scores with the experts' mean, computed here from the script.
    const judges = JSON.parse(readFileSync(join(cwd, 'judges.json'), 'utf8')) as { alignment: Array<{ rater: string; item: string; n: number; tauExperts: { tau: number } }> };
    for (const row of judges.alignment) {
      const mean = expertMean(row.item);
      const tasks = [...mean.keys()].sort();
      const expected = kendallTauB(tasks.map(t => scriptedScore(row.rater.replace('_', '-'), t, row.item as 'clarity')), tasks.map(t => mean.get(t)!)).tau;
      expect(row.n).toBe(8);
      expect(row.tauExperts.tau).toBeCloseTo(expected, 12);
    }
    expect(judges.alignment.map(r => `${r.rater}/${r.item}`).sort()).toEqual(['judge_a/accuracy', 'judge_a/clarity', 'judge_b/accuracy', 'judge_b/clarity']);
    // The report shows the same numbers beside the judged scores.
    const report = readFileSync(join(cwd, 'scenario-report.md'), 'utf8');
    expect(report).toContain('## Judge validity');
    const a = judges.alignment.find(r => r.rater === 'judge_a' && r.item === 'clarity')!;
    expect(report).toContain(a.tauExperts.tau.toFixed(3));
    // The template lists every observation x item the judges rated, with the text they read.
    const template = readFileSync(join(cwd, 'my-experts.csv'), 'utf8').trim().split(/\r\n/);
    expect(template[0]).toBe('observation,item,expert,score,text');
    expect(template).toHaveLength(1 + Object.keys(TOPICS).length * 2);
    expect(template[1]).toMatch(/^t01\/tutor\/0,accuracy,expert-1,,"?\[user\] Please explain: Why we have seasons/);
    expect(readFileSync(join(cwd, 'study.html'), 'utf8')).toContain('rater_b');

    // Rescore and report ask nothing.
    const before = server.requests.length;
    const rescored = await runCli(['rescore', study, '--store', 'sqlite:validity-example.db'], { cwd, env });
    expect(rescored.stdout).toContain(`rescored 96 rating(s) of ${study} from stored answers: 94 scored, 2 unscored`);
    const plain = await runCli(['report', scenario, '--format', 'md', '--out', '-', '--store', 'sqlite:validity-example.db'], { cwd, env });
    expect(plain.stdout).toMatch(/No expert scores are attached[^\n]*paideia validity template --run scn-/);
    expect(plain.stdout).toMatch(/No outcome \(e\.g\. a learning gain\) is attached to these judges[^\n]*paideia validity analyze --run scn-\S+ --outcomes outcomes\.csv/);
    expect(server.requests.length).toBe(before);
  }, 120_000);
});
