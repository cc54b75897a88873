import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/index.js';
import { listBlimpFiles, parseBlimpJsonl, readBlimp } from './blimp.js';

const SOURCES = 'data/sources';
const DATA = join(SOURCES, 'blimp', 'data');

/** The first `n` lines of a shipped BLiMP file, unchanged. */
function realLines(uid: string, n: number): string[] {
  return readFileSync(join(DATA, `${uid}.jsonl`), 'utf8').split('\n').slice(0, n);
}

const made: string[] = [];
afterAll(() => made.forEach(dir => rmSync(dir, { recursive: true, force: true })));

function sourcesWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'paideia-blimp-'));
  made.push(root);
  mkdirSync(join(root, 'blimp', 'data'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'blimp', 'data', name), text);
  return root;
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('parseBlimpJsonl', () => {
  it('reads the first record of regular_plural_subject_verb_agreement_1 with pairID as a string', () => {
    const [record] = parseBlimpJsonl(realLines('regular_plural_subject_verb_agreement_1', 1)[0]!, 'x.jsonl');
    expect(record).toMatchObject({
      sentence_good: 'Paula references Robert.',
      sentence_bad: 'Paula reference Robert.',
      one_prefix_prefix: 'Paula',
      one_prefix_word_good: 'references',
      one_prefix_word_bad: 'reference',
      UID: 'regular_plural_subject_verb_agreement_1',
      pairID: '0',
    });
    expect(typeof record!.pairID).toBe('string');
  });

  it('keeps the paradigm-dependent fields each paradigm has, and no others', () => {
    const [transitive] = parseBlimpJsonl(realLines('transitive', 1)[0]!, 't.jsonl');
    expect(transitive).toMatchObject({ two_prefix_prefix_good: 'Some turtles alarm', two_prefix_word: 'Kimberley' });
    expect(transitive!.one_prefix_prefix).toBeUndefined();
    const [distractor] = parseBlimpJsonl(realLines('distractor_agreement_relational_noun', 1)[0]!, 'd.jsonl');
    expect(distractor!.dependency_length).toBe(5);
    const [intransitive] = parseBlimpJsonl(realLines('intransitive', 1)[0]!, 'i.jsonl');
    expect(intransitive!.one_prefix_prefix).toBeUndefined();
    expect(intransitive!.two_prefix_word).toBeUndefined();
    expect(intransitive!.sentence_bad).toBe("Todd can't walk through.");
  });

  it('accepts a numeric pairID (as the upstream README describes it) and stores it as a string', () => {
    const line = realLines('intransitive', 1)[0]!.replace('"pairID": "0"', '"pairID": 0');
    expect(parseBlimpJsonl(line, 'i.jsonl')[0]!.pairID).toBe('0');
  });

  it('names file and line of bad JSON and of a record missing its one_prefix fields, all at once', () => {
    const lines = realLines('anaphor_gender_agreement', 3);
    lines[1] = lines[1]!.slice(0, 40); // cut mid-record
    lines[2] = lines[2]!.replace(/"one_prefix_word_bad": "[^"]*", /, '');
    const error = configError(() => parseBlimpJsonl(lines.join('\n'), 'data/anaphor_gender_agreement.jsonl'));
    expect(error.issues).toHaveLength(2);
    expect(error.issues[0]).toMatchObject({ file: 'data/anaphor_gender_agreement.jsonl', line: 2 });
    expect(error.issues[0]!.message).toMatch(/not valid JSON/);
    expect(error.issues[1]).toMatchObject({ line: 3, field: 'one_prefix_word_bad' });
    expect(error.message).toContain('data/anaphor_gender_agreement.jsonl:2');
  });

  it('rejects a pairID used twice and a UID that changes within a file', () => {
    const [first, second] = realLines('anaphor_number_agreement', 2);
    const dup = configError(() => parseBlimpJsonl([first, second!.replace('"pairID": "1"', '"pairID": "0"')].join('\n'), 'f'));
    expect(dup.issues[0]).toMatchObject({ line: 2, field: 'pairID' });
    const mixed = configError(() => parseBlimpJsonl([first, realLines('transitive', 2)[1]].join('\n'), 'f'));
    expect(mixed.issues[0]).toMatchObject({ line: 2, field: 'UID' });
  });
});

describe('readBlimp', () => {
  it('reads the 13 shipped paradigms, 1,000 pairs each, from a listing made at run time', () => {
    const paradigms = readBlimp(SOURCES);
    expect(paradigms.map(p => p.uid)).toHaveLength(13);
    for (const p of paradigms) {
      expect(p.records).toHaveLength(1000);
      expect(p.file).toBe(`data/${p.uid}.jsonl`);
      expect(new Set(p.records.map(r => r.pairID)).size).toBe(1000);
    }
  });

  it('ships the files byte-identical to MANIFEST.tsv', () => {
    const rows = readFileSync(join(SOURCES, 'blimp', 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1);
    expect(rows).toHaveLength(14);
    for (const row of rows) {
      const [path, bytes, , sha256] = row.split('\t');
      const content = readFileSync(join(SOURCES, 'blimp', path!));
      expect(content.length, path).toBe(Number(bytes));
      expect(createHash('sha256').update(content).digest('hex'), path).toBe(sha256);
    }
  });

  it("lists whatever *.jsonl a user's folder holds, sorted, and ignores other files", () => {
    const root = sourcesWith({
      'transitive.jsonl': realLines('transitive', 3).join('\n'),
      'anaphor_gender_agreement.jsonl': realLines('anaphor_gender_agreement', 2).join('\n'),
      'notes.txt': 'not data',
    });
    expect(listBlimpFiles(root)).toEqual(['anaphor_gender_agreement.jsonl', 'transitive.jsonl']);
    expect(readBlimp(root).map(p => [p.uid, p.records.length])).toEqual([
      ['anaphor_gender_agreement', 2],
      ['transitive', 3],
    ]);
  });

  it('finds nothing (rather than throwing) when the folder is missing', () => {
    expect(listBlimpFiles(join(tmpdir(), 'paideia-no-such-folder'))).toEqual([]);
  });

  it('names the file and line of a bad record in a folder', () => {
    const root = sourcesWith({ 'intransitive.jsonl': `${realLines('intransitive', 1)[0]}\n{"sentence_good": \n` });
    const error = configError(() => readBlimp(root));
    expect(error.issues[0]).toMatchObject({ file: join(root, 'blimp', 'data', 'intransitive.jsonl'), line: 2 });
  });

  it('rejects two files declaring the same UID', () => {
    const line = realLines('intransitive', 1)[0]!;
    const error = configError(() => readBlimp(sourcesWith({ 'a.jsonl': line, 'b.jsonl': line })));
    expect(error.issues[0]!.message).toMatch(/also used by/);
  });
});
