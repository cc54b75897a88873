import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import type { Item } from '../core/item.js';
import { loadAudit } from './audit.js';
import { buildSuites } from './build.js';
import { englishBuilders } from './english/index.js';

const shippedTutorIds = (): string[] =>
  readFileSync(new URL('../../data/samples/english/tutor_accuracy.jsonl', import.meta.url), 'utf8').split('\n').filter(Boolean).map(l => (JSON.parse(l) as Item).id);

function auditFile(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'paideia-audit-')), 'audit.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('audits in the build report', () => {
  it("gives the flagged share with its Clopper-Pearson interval: Teanga's 2 of 30 is 0.8% to 22.1%", async () => {
    const out = mkdtempSync(join(tmpdir(), 'paideia-audit-'));
    // a reviewer checked the first 30 of the 200 built tutor items and flagged two
    const built = await buildSuites({ builders: englishBuilders, privateDir: join(out, 'p'), samplesDir: join(out, 's') });
    const ids = readFileSync(join(out, 'p', 'english', 'tutor_accuracy.jsonl'), 'utf8').split('\n').filter(Boolean).map(l => (JSON.parse(l) as Item).id).slice(0, 30);
    const file = auditFile(ids.map((id, i) => JSON.stringify({ id, flagged: i === 3 || i === 17, ...(i === 3 ? { reason: 'both sentences acceptable' } : {}), by: 'reviewer-1' })));
    const audited = await buildSuites({ builders: englishBuilders, privateDir: join(out, 'p2'), samplesDir: join(out, 's2'), audit: loadAudit(file) });
    const t = audited.suites[0]!.tests.find(x => x.test === 'tutor_accuracy')!;
    expect(t.audit).toMatchObject({ checked: 30, flagged: 2, method: 'clopper-pearson', level: 0.95, flaggedIds: [ids[3], ids[17]].sort() });
    expect(t.audit!.low).toBeCloseTo(0.008178134460656279, 12);
    expect(t.audit!.high).toBeCloseTo(0.22073540152296212, 12);
    expect(audited.suites[0]!.tests.find(x => x.test === 'exercises')!.audit).toBeUndefined();
    const md = readFileSync(join(out, 's2', 'english', 'build-report.md'), 'utf8');
    expect(md).toContain('Audit: 2 of 30 checked items flagged (6.7%; 95% Clopper-Pearson interval 0.8% to 22.1%)');
    // without an audit nothing changes: the shipped build report has no audit key
    expect(built.suites[0]!.tests.every(x => !('audit' in x))).toBe(true);
  }, 120_000);

  it('names file, line and field of a bad record, and refuses ids that were not built before writing anything', async () => {
    const bad = auditFile(['{"id": "x", "flagged": true}', '{"id": "y", "flagged": "yes"}', 'nope']);
    let error: unknown;
    try { loadAudit(bad); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map(i => [i.line, i.field])).toEqual([[2, 'flagged'], [3, undefined]]);
    const out = mkdtempSync(join(tmpdir(), 'paideia-audit-'));
    const typo = auditFile([JSON.stringify({ id: shippedTutorIds()[0], flagged: false }), '{"id": "blimp:nope:1:tutor_accuracy", "flagged": true}']);
    await expect(buildSuites({ builders: englishBuilders, privateDir: join(out, 'p'), samplesDir: join(out, 's'), audit: loadAudit(typo) }))
      .rejects.toThrow(`${typo}:2, field "id": no built item has id "blimp:nope:1:tutor_accuracy"`);
    expect(existsSync(join(out, 's'))).toBe(false);
  }, 120_000);
});
