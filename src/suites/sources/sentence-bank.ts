import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeXmlEntities, parseXmlAttributes, stripXmlProlog, type SourceProblem } from './bunamo.js';

/*
 * Reader for the Irish Sentence Bank (michmech/irish-sentence-bank) format: `<sentence>` records,
 * each an `<original>` with mixed content (`<token slot>` elements interlaced with spaces and
 * punctuation), one or more `<translation>` elements and `<flex slot lemma>` links. The file is
 * CRLF; XML treats CRLF as LF, and so does this reader.
 */

/** One token of an original sentence. */
export interface BankToken {
  slot: number;
  /** Surface form, entities decoded (e.g. `D'fhág`). */
  text: string;
  /** Lemmas linked by `<flex>` with this slot, in file order; empty for 524 tokens (dashes, names). */
  lemmas: string[];
}

/** One sentence record. */
export interface BankSentence {
  /** File inside the sentence-bank folder, e.g. `sentences.xml`. */
  file: string;
  /** 1-based position of the record in its file: the record key (`sentence #n`). */
  index: number;
  /** The record's `source` code, e.g. `potaL`. */
  source: string;
  /** The record's `sourceBlurb` (bibliographic reference), when it has one. */
  sourceBlurb?: string;
  /** The original as it reads: tokens and the text between them, in order. */
  parts: Array<string | BankToken>;
  /** The original as plain text. */
  text: string;
  tokens: BankToken[];
  /** Every `<translation>` element's text, in order (two records split theirs over two elements). */
  translations: string[];
  /** The translations joined with one space. */
  translation: string;
}

export interface SentenceBankRead {
  sentences: BankSentence[];
  problems: SourceProblem[];
  found: boolean;
}

const SENTENCE = /<sentence\b([^>]*)>([\s\S]*?)<\/sentence>/g;
const ORIGINAL = /<original\b[^>]*>([\s\S]*?)<\/original>/;
const TRANSLATION = /<translation\b[^>]*>([\s\S]*?)<\/translation>|<translation\b[^>]*\/>/g;
const FLEX = /<flex\b([^>]*?)\/?>/g;
const TOKEN = /<token\b([^>]*)>([\s\S]*?)<\/token>/g;

/** Plain text of a sentence with some tokens' text replaced (by slot): how learner sentences are made. */
export function renderParts(parts: ReadonlyArray<string | BankToken>, replace: ReadonlyMap<number, string> = new Map()): string {
  return parts.map(p => (typeof p === 'string' ? p : replace.get(p.slot) ?? p.text)).join('').trim();
}

function parseOriginal(inner: string, where: string): Array<string | BankToken> {
  const parts: Array<string | BankToken> = [];
  let last = 0;
  for (const m of inner.matchAll(TOKEN)) {
    const between = inner.slice(last, m.index);
    if (between.includes('<')) throw new Error(`${where}: unexpected markup "${between.slice(0, 40)}" in <original>`);
    if (between) parts.push(decodeXmlEntities(between));
    const slot = Number(parseXmlAttributes(m[1] ?? '').slot);
    if (!Number.isInteger(slot)) throw new Error(`${where}: <token> without a numeric slot`);
    const text = m[2] ?? '';
    if (text.includes('<')) throw new Error(`${where}: markup inside <token slot="${slot}">`);
    parts.push({ slot, text: decodeXmlEntities(text), lemmas: [] });
    last = m.index + m[0].length;
  }
  const tail = inner.slice(last);
  if (tail.includes('<')) throw new Error(`${where}: unexpected markup "${tail.slice(0, 40)}" in <original>`);
  if (tail) parts.push(decodeXmlEntities(tail));
  return parts;
}

/** Parse the text of one sentence-bank file. Bad records are reported in `problems` and skipped. */
export function parseSentenceBank(xml: string, file: string): { sentences: BankSentence[]; problems: SourceProblem[] } {
  const body = stripXmlProlog(xml).replace(/\r\n?/g, '\n');
  const sentences: BankSentence[] = [];
  const problems: SourceProblem[] = [];
  let index = 0;
  for (const m of body.matchAll(SENTENCE)) {
    index++;
    const where = `${file} sentence #${index}`;
    try {
      const attrs = parseXmlAttributes(m[1] ?? '');
      const inner = m[2] ?? '';
      const original = ORIGINAL.exec(inner);
      if (!original) throw new Error(`${where}: no <original>`);
      const parts = parseOriginal(original[1] ?? '', where);
      const tokens = parts.filter((p): p is BankToken => typeof p !== 'string');
      const bySlot = new Map(tokens.map(t => [t.slot, t]));
      for (const f of inner.matchAll(FLEX)) {
        const fa = parseXmlAttributes(f[1] ?? '');
        const token = bySlot.get(Number(fa.slot));
        if (token && fa.lemma) token.lemmas.push(fa.lemma);
      }
      const translations = [...inner.matchAll(TRANSLATION)].map(t => decodeXmlEntities(t[1] ?? '').trim()).filter(t => t !== '');
      const sentence: BankSentence = {
        file,
        index,
        source: attrs.source ?? '',
        parts,
        text: renderParts(parts),
        tokens,
        translations,
        translation: translations.join(' '),
      };
      if (attrs.sourceBlurb) sentence.sourceBlurb = attrs.sourceBlurb;
      sentences.push(sentence);
    } catch (e) {
      problems.push({ file, message: (e as Error).message });
    }
  }
  return { sentences, problems };
}

/** Read every `*.xml` file in a sentence-bank folder, in code-point order of file name. */
export function readSentenceBank(dir: string): SentenceBankRead {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { sentences: [], problems: [{ file: dir, message: 'folder not found' }], found: false };
  const sentences: BankSentence[] = [];
  const problems: SourceProblem[] = [];
  const names = readdirSync(dir)
    .filter(n => n.endsWith('.xml'))
    .map(n => [n, n.normalize('NFC')] as const)
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  for (const [name, nfc] of names) {
    const parsed = parseSentenceBank(readFileSync(join(dir, name), 'utf8'), nfc);
    sentences.push(...parsed.sentences);
    problems.push(...parsed.problems);
  }
  if (names.length === 0) problems.push({ file: dir, message: 'no .xml files' });
  return { sentences, problems, found: true };
}
