import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { checkUnits, checkUnitText, loadUnits } from './load.js';

const GOOD_FILE = new URL('../../../data/units/chickasaw-case-and-person.yaml', import.meta.url);
const GOOD = readFileSync(GOOD_FILE, 'utf8');

/** Replace one exact snippet of the good unit, failing loudly if the fixture drifted. */
function edit(text: string, from: string, to: string): string {
  expect(text.includes(from), `fixture lacks ${JSON.stringify(from)}`).toBe(true);
  return text.replace(from, to);
}
const lineOf = (text: string, snippet: string) => text.slice(0, text.indexOf(snippet)).split('\n').length;
const issuesOf = (text: string) => checkUnitText('u.yaml', text).issues.map(i => `${i.line}:${i.field}: ${i.message}`);

describe('unit validation', () => {
  it('accepts the shipped fixture unit', () => {
    const r = checkUnitText('u.yaml', GOOD);
    expect(r.issues).toEqual([]);
    expect(r.unit?.id).toBe('chickasaw-case-and-person');
  });

  it('reports a YAML syntax error with its line', () => {
    const bad = edit(GOOD, 'title: "Chickasaw: who does what to whom"', 'title: "unclosed');
    const [issue] = checkUnitText('u.yaml', bad).issues;
    expect(issue?.message).toMatch(/^YAML syntax/);
    expect(issue?.line).toBeGreaterThanOrEqual(2);
  });

  it('names an unknown key with a did-you-mean hint, and a missing key', () => {
    const bad = edit(edit(GOOD, 'knowledge_point:', 'knowledge_piont:'), 'exceptions: []\n', '');
    expect(issuesOf(bad).sort()).toEqual([
      '1:exceptions: missing required key "exceptions" (expected array)',
      '1:knowledge_point: missing required key "knowledge_point" (expected string)',
      `${lineOf(bad, 'knowledge_piont')}:knowledge_piont: unknown key "knowledge_piont"; did you mean "knowledge_point"?`,
    ]);
  });

  it('reports a missing credit, and an empty one, at the provenance line', () => {
    const empty = edit(GOOD, /  credit: ".*"\n/.exec(GOOD)![0], '  credit: ""\n');
    expect(issuesOf(empty)).toEqual([`${lineOf(empty, 'credit:')}:provenance.credit: missing credit: name the olympiad or author who made the puzzle`]);
    const absent = edit(GOOD, /  credit: ".*"\n/.exec(GOOD)![0], '');
    expect(issuesOf(absent)).toEqual([`${lineOf(absent, '  puzzle:')}:provenance.credit: missing required key "credit" (expected string)`]);
  });

  it('counts rules: fewer than 2 or more than 6 is an error', () => {
    const one = GOOD.replace(/rules:\n(  - .*\n)+/, 'rules:\n  - Only one rule.\n');
    expect(issuesOf(one)).toEqual([`${lineOf(one, '  - Only one rule.')}:rules: has 1 rules; a unit needs 2-6 teachable rules (merge or split them)`]);
    const seven = GOOD.replace(/rules:\n/, `rules:\n${'  - Extra rule.\n'.repeat(3)}`);
    expect(issuesOf(seven)).toEqual([`${lineOf(seven, '  - Extra rule.')}:rules: has 7 rules; a unit needs 2-6 teachable rules (merge or split them)`]);
  });

  it('rejects a transfer item that repeats a source item', () => {
    const bad = edit(GOOD, 'prompt: "Translate into English: Ihooat sahollo."', `prompt: "Translate into English: Kowi'at ofi'ã lhiyohli."`);
    expect(issuesOf(bad)).toEqual([`${lineOf(bad, `prompt: "Translate into English: Kowi'at ofi'ã lhiyohli."\n    answer: The woman`)}:near_transfer.0.prompt: a transfer item that repeats source item source_items.0; transfer must use new material`]);
  });

  it('rejects an answer that is not among accepted', () => {
    const bad = edit(GOOD, 'accepted: [The dog dances., The dog dances, A dog dances.]', 'accepted: [A dog dances.]');
    expect(issuesOf(bad)).toEqual([`${lineOf(bad, 'accepted: [A dog dances.]')}:near_transfer.1.accepted: does not contain the answer "The dog dances."; add it or fix the answer`]);
  });

  it('rejects a difficulty band that the rubric does not give', () => {
    const bad = edit(GOOD, 'band: basic', 'band: advanced');
    expect(issuesOf(bad)).toEqual([`${lineOf(bad, 'band: advanced')}:difficulty.band: is "advanced" but the rubric scores total a "basic" unit (4-6 basic, 7-9 intermediate, 10-12 advanced)`]);
    // Scores of 8 make an intermediate unit: the message says "an".
    const harder = edit(GOOD, 'rubric: { rule_complexity: 1, exception_density: 1,', 'rubric: { rule_complexity: 3, exception_density: 2,');
    expect(issuesOf(harder)).toEqual([`${lineOf(harder, 'band: basic')}:difficulty.band: is "basic" but the rubric scores total an "intermediate" unit (4-6 basic, 7-9 intermediate, 10-12 advanced)`]);
  });

  it('rejects an answer the teaching content gives away', () => {
    const bad = edit(GOOD, '{ source: "Hilha.", target: "(He/She) dances." }', '{ source: "Hilha.", target: "(He/She) dances.", note: "so: the dog dances" }');
    expect(issuesOf(bad)).toEqual([`${lineOf(bad, 'answer: The dog dances.')}:near_transfer.1.answer: "The dog dances." appears in examples.5.note, so the outline would give it away; choose another item or reword the teaching text`]);
  });

  it('reports every problem of a file at once, and ids duplicated across files', () => {
    const bad = edit(edit(GOOD, 'band: basic', 'band: advanced'), 'accepted: [The dog dances., The dog dances, A dog dances.]', 'accepted: [A dog dances.]');
    const dir = mkdtempSync(join(tmpdir(), 'units-'));
    writeFileSync(join(dir, 'a.yaml'), GOOD);
    writeFileSync(join(dir, 'b.yaml'), GOOD);
    writeFileSync(join(dir, 'c.yml'), bad);
    const { units, issues } = checkUnits([dir]);
    expect(units.map(u => u.file)).toEqual([join(dir, 'a.yaml')]);
    expect(issues.map(i => `${i.file}:${i.field}`)).toEqual([
      `${join(dir, 'b.yaml')}:id`, `${join(dir, 'c.yml')}:difficulty.band`, `${join(dir, 'c.yml')}:near_transfer.1.accepted`,
      // A file with problems of its own still has its id checked against the others.
      `${join(dir, 'c.yml')}:id`,
    ]);
    expect(issues[0]!.message).toBe(`unit id "chickasaw-case-and-person" is already used by ${join(dir, 'a.yaml')}; ids must be unique`);
    expect(issues[0]!.line).toBe(1);
    expect(() => loadUnits([dir])).toThrow(ConfigError);
    expect(() => loadUnits([join(dir, 'missing.yaml')])).toThrow(/no such file or folder/);
  });
});
