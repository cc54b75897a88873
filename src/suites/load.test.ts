import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/index.js';
import { loadItems } from './load.js';

const good = {
  id: 'bunamo:noun/iarnród_masc1.xml:sgGen', test: 'grammar_forms', language: 'ga',
  input: { lemma: 'iarnród', pos: 'noun', form: 'sgGen', formLabel: 'genitive singular' }, accepted: ['iarnróid'],
  source: { dataset: 'BuNaMo', file: 'noun/iarnród_masc1.xml', key: 'sgGen' }, licence: 'ODbL-1.0',
  evidence: 'bunamo-form', visibility: 'public', contamination: 'public-source', human_checked: false,
};

function file(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'paideia-items-')), 'suite.jsonl');
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe('loadItems', () => {
  it('loads items, keeps unknown fields and versions them by content', () => {
    const path = file(['\uFEFF' + JSON.stringify({ ...good, answer: { has_error: false } }), '', JSON.stringify({ ...good, id: 'b' })]);
    const items = loadItems([path]);
    expect(items).toHaveLength(2);
    expect(items[0]?.item.answer).toEqual({ has_error: false });
    expect(items[0]?.line).toBe(1);
    expect(items[1]?.line).toBe(3);
    expect(items[0]?.hash).not.toBe(items[1]?.hash);
  });

  it('reports every bad line with file, line and field, and loads nothing', () => {
    const { licence: _omit, ...noLicence } = good;
    const path = file([
      JSON.stringify(good),
      '{"id": "x", ',
      JSON.stringify(noLicence),
      JSON.stringify({ ...good, id: 'c', visibility: 'secret', accepted: [] }),
      JSON.stringify(good),
    ]);
    let error: ConfigError | undefined;
    try {
      loadItems([path]);
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const where = error!.issues.map(i => `${i.line}:${i.field ?? ''}`);
    expect(where).toEqual(expect.arrayContaining(['2:', '3:licence', '4:visibility', '4:accepted', '5:id']));
    expect(error!.message).toContain(`${path}:3, field "licence"`);
    expect(error!.message).toMatch(/not valid JSON/);
  });

  it('names a missing path', () => {
    expect(() => loadItems(['/no/such/suite.jsonl'])).toThrow(/\/no\/such\/suite.jsonl: no such item file/);
  });
});

describe('loadItems on hostile files', () => {
  it('names a line that is not an object, an empty accepted answer, a blank id, and a BOM inside the file is tolerated', () => {
    const path = file([
      'null',
      JSON.stringify({ ...good, id: 'e', accepted: [''] }),
      JSON.stringify({ ...good, id: '  ' }),
      '\uFEFF' + JSON.stringify({ ...good, id: 'bom-mid-file' }),
    ]);
    let error: ConfigError | undefined;
    try {
      loadItems([path]);
    } catch (e) {
      error = e as ConfigError;
    }
    const where = error!.issues.map(i => `${i.line}:${i.field ?? ''}`);
    expect(where).toContain('1:');
    expect(where).toContain('2:accepted.0');
    expect(where).toContain('3:id');
    expect(where.some(w => w.startsWith('4:'))).toBe(false);
    expect(where.filter(w => w.startsWith('1:'))).toHaveLength(1); // no spurious "accepted" issue for a null line
  });

  it('refuses a file that is not UTF-8, naming the line, instead of decoding it to U+FFFD', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'paideia-items-')), 'latin1.jsonl');
    const line = JSON.stringify({ ...good, id: 'caf\u00e9' });
    writeFileSync(path, Buffer.concat([Buffer.from(JSON.stringify(good) + '\n'), Buffer.from(line, 'latin1')]));
    expect(() => loadItems([path])).toThrow(new RegExp(`${path}:2: not valid UTF-8`));
  });

  it('says a file with no item lines holds no items', () => {
    expect(() => loadItems([file(['', '  '])])).toThrow(/no items/);
  });

  it('names where a duplicate id was first seen, across files', () => {
    const first = file(['', JSON.stringify(good)]);
    const second = file([JSON.stringify({ ...good, id: 'other' }), JSON.stringify({ ...good, accepted: ['x'] })]);
    expect(() => loadItems([first, second])).toThrow(`${second}:2, field "id": duplicate id "${good.id}" in test "grammar_forms" (first at ${first}:2)`);
  });
});
