import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeXmlEntities, parseBunamoXml, parseXmlAttributes, readBunamo, slotValues } from './bunamo.js';

const DIR = 'data/sources/bunamo';
const raw = (file: string): string => readFileSync(join(DIR, file), 'utf8');

describe('parseBunamoXml on real files', () => {
  it('reads a file with a BOM and an XML declaration (noun/iarnród_masc1.xml)', () => {
    const text = raw('noun/iarnród_masc1.xml');
    expect(text.charCodeAt(0)).toBe(0xfeff); // readFileSync keeps the BOM: the parser must strip it
    const e = parseBunamoXml(text, 'noun/iarnród_masc1.xml');
    expect(e).toMatchObject({ category: 'noun', root: 'noun', lemma: 'iarnród' });
    expect(e.attributes.declension).toBe('1');
    expect(slotValues(e, 'sgGen')).toEqual(['iarnróid']);
    expect(slotValues(e, 'plGen')).toEqual(['iarnród']);
    expect(e.slots.find(s => s.element === 'sgGen')!.attributes.gender).toBe('masc');
    expect(e.slots.find(s => s.element === 'plGen')!.attributes.strength).toBe('weak');
  });

  it('reads a file with no BOM, no declaration and no final newline (noun/agranamaí_masc4.xml)', () => {
    const text = raw('noun/agranamaí_masc4.xml');
    expect(text.startsWith('<noun')).toBe(true);
    expect(text.endsWith('</noun>')).toBe(true);
    const e = parseBunamoXml(text, 'noun/agranamaí_masc4.xml');
    expect(slotValues(e, 'plNom')).toEqual(['agranamaithe']);
    expect(e.attributes.isImmutable).toBe('0');
  });

  it('keeps every form of a multi-form slot, in file order (verb/feic_verb.xml)', () => {
    const e = parseBunamoXml(raw('verb/feic_verb.xml'), 'verb/feic_verb.xml');
    expect(slotValues(e, 'verbalNoun')).toEqual(['feiceáil', 'feiscint']);
    const pastDep = e.slots.filter(s => s.element === 'tenseForm' && s.attributes.tense === 'Past' && s.attributes.dependency === 'Dep');
    expect(pastDep.map(s => s.value)).toEqual(['faca', 'facamar', 'facadar', 'facthas']);
  });

  it('keeps « as it is in the file, for the builder to skip (adjective/Pan-«Cheilteach_adj.xml)', () => {
    const e = parseBunamoXml(raw('adjective/Pan-«Cheilteach_adj.xml'), 'adjective/Pan-«Cheilteach_adj.xml');
    expect(e.lemma).toBe('Pan-«Cheilteach');
    expect(e.attributes.isPre).toBe('False');
    expect(slotValues(e, 'graded')).toEqual(['Pan-«Cheiltí']);
  });

  it('reads a preposition with only three persons (preposition/idir_prep.xml)', () => {
    const e = parseBunamoXml(raw('preposition/idir_prep.xml'), 'preposition/idir_prep.xml');
    expect(e.slots.map(s => s.element)).toEqual(['pl1', 'pl2', 'pl3']);
  });
});

describe('XML helpers', () => {
  it('decodes entities in either quote style and rejects unknown ones', () => {
    expect(parseXmlAttributes(` a="x &amp; y" b='D&apos;fhág' c="&#233;&#xE1;"`)).toEqual({ a: 'x & y', b: "D'fhág", c: 'éá' });
    expect(() => decodeXmlEntities('&nbsp;')).toThrow(/unknown XML entity/);
    expect(() => decodeXmlEntities('a & b')).toThrow(/bare "&"/);
  });

  it('rejects a file it cannot read rather than guessing', () => {
    expect(() => parseBunamoXml('<noun default="x"><sgGen default="y" />', 'x.xml')).toThrow(/no complete root/);
    expect(() => parseBunamoXml('<noun default="x">text</noun>', 'x.xml')).toThrow(/unexpected text/);
    expect(() => parseBunamoXml('<noun default="x"></verb>', 'x.xml')).toThrow(/closes/);
  });
});

describe('readBunamo', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'bunamo-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('reads the whole shipped subset in code-point order, NFC names, no problems', () => {
    const r = readBunamo(DIR, ['noun', 'adjective', 'verb', 'preposition', 'possessive', 'nounPhrase']);
    expect(r.found).toBe(true);
    expect(r.problems).toEqual([]);
    expect(r.entries.length).toBe(2038);
    const files = r.entries.map(e => e.file);
    const nouns = files.filter(f => f.startsWith('noun/'));
    expect(nouns.length).toBe(1500);
    expect(nouns).toEqual(nouns.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const f of files) expect(f).toBe(f.normalize('NFC'));
  });

  it('says so when the folder or a subfolder is missing', () => {
    expect(readBunamo(join(tmp, 'nope'), ['noun']).found).toBe(false);
    const r = readBunamo(tmp, ['noun']);
    expect(r.found).toBe(true);
    expect(r.problems).toEqual([{ file: 'noun/', message: 'subfolder not found' }]);
  });
});
