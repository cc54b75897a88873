import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSentenceBank, readSentenceBank, renderParts } from './sentence-bank.js';

const FILE = 'data/sources/irish-sentence-bank/sentences.xml';

describe('the shipped sentence bank', () => {
  const raw = readFileSync(FILE, 'utf8');
  const { sentences, problems } = readSentenceBank('data/sources/irish-sentence-bank');
  const find = (text: string) => sentences.find(s => s.text === text)!;

  it('is CRLF without a BOM, and every record parses', () => {
    expect(raw.includes('\r\n')).toBe(true);
    expect(raw.charCodeAt(0)).not.toBe(0xfeff);
    expect(problems).toEqual([]);
    expect(sentences.length).toBe(4446);
    expect(sentences.reduce((n, s) => n + s.tokens.length, 0)).toBe(31974);
    expect(sentences.reduce((n, s) => n + s.tokens.reduce((m, t) => m + t.lemmas.length, 0), 0)).toBe(32027);
    expect(sentences.filter(s => s.sourceBlurb).length).toBe(2073);
  });

  it('reads the first record as the README shows it', () => {
    expect(sentences[0]).toMatchObject({ index: 1, file: 'sentences.xml', source: 'potaL', text: 'Bob nó bia!', translation: 'Trick or treat!' });
    expect(sentences[0]!.tokens.map(t => [t.slot, t.text, t.lemmas])).toEqual([[1, 'Bob', ['bob']], [2, 'nó', ['nó']], [3, 'bia', ['bia']]]);
    expect(sentences[0]!.sourceBlurb).toBeUndefined();
  });

  it('joins the two split translations with one space', () => {
    const split = sentences.filter(s => s.translations.length > 1);
    expect(split.map(s => s.index)).toEqual([1612, 1659]);
    expect(split[0]!.translations).toEqual(["I don't have a red ha'penny (", 'no money at all).']);
    expect(split[0]!.translation).toBe("I don't have a red ha'penny ( no money at all).");
    expect(split[1]!.translation).toBe('Pint of Guinness please. - There you are. - Good man. { thank you}');
  });

  it('decodes entities in mixed-content tokens and keeps the punctuation between them', () => {
    const s = find("D'fhág siad an tír aimsir an ghorta.");
    expect(s.tokens[0]!.text).toBe("D'fhág");
    expect(s.parts.slice(-2)).toEqual([{ slot: 7, text: 'ghorta', lemmas: ['gorta'] }, '.']);
  });

  it('keeps several lemmas on one slot and tokens with none', () => {
    const s = find('Abair liom a bhfuil uait.');
    expect(s.tokens[4]).toEqual({ slot: 5, text: 'uait', lemmas: ['ó', 'uait'] });
    const dashes = sentences.flatMap(x => x.tokens).filter(t => t.lemmas.length === 0);
    expect(dashes.length).toBe(524);
  });

  it('decodes &amp; in a sourceBlurb', () => {
    const turas = sentences.find(s => s.source === 'turasL')!;
    expect(turas.sourceBlurb).toBe('Éamonn Ó Dónaill: Turas Teanga. RTÉ/Gill & Macmillan, 2004');
  });

  it('gives the same records whether the file is CRLF or LF', () => {
    const lf = parseSentenceBank(raw.replace(/\r\n/g, '\n'), 'sentences.xml');
    expect(JSON.stringify(lf.sentences)).toBe(JSON.stringify(sentences));
    for (const s of sentences) expect(/\r/.test(s.text + s.translation + s.parts.map(p => (typeof p === 'string' ? p : p.text)).join(''))).toBe(false);
  });

  it('renders a sentence with one token replaced', () => {
    const s = find('Abair liom a bhfuil uait.');
    expect(renderParts(s.parts, new Map([[4, 'tá']]))).toBe('Abair liom a tá uait.');
  });
});

describe('parseSentenceBank on small inputs', () => {
  it('reports a broken record and goes on', () => {
    const xml = `<sentences>\r\n<sentence source='x'><translation>no original</translation></sentence>\r\n` +
      `<sentence source='y' sourceBlurb='A &amp; B'><original xml:space="preserve"><token slot='1'>Tá</token> <token slot='2'>sé</token>.</original><translation>It is.</translation><flex slot='1' lemma='bí'/></sentence></sentences>`;
    const r = parseSentenceBank(xml, 't.xml');
    expect(r.problems).toEqual([{ file: 't.xml', message: 't.xml sentence #1: no <original>' }]);
    expect(r.sentences).toHaveLength(1);
    expect(r.sentences[0]).toMatchObject({ index: 2, source: 'y', sourceBlurb: 'A & B', text: 'Tá sé.' });
    expect(r.sentences[0]!.tokens[1]!.lemmas).toEqual([]);
  });

  it('rejects markup inside a token', () => {
    const r = parseSentenceBank(`<sentence source='x'><original><token slot='1'>a<b/></token></original></sentence>`, 't.xml');
    expect(r.problems[0]!.message).toMatch(/markup inside <token/);
  });

  it('reports a missing folder', () => {
    expect(readSentenceBank('no/such/folder').found).toBe(false);
  });
});
