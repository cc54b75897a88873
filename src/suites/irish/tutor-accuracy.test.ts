import { describe, expect, it } from 'vitest';
import { ItemSchema, type Item } from '../../core/item.js';
import { readBunamo } from '../sources/bunamo.js';
import { readSentenceBank, type BankToken } from '../sources/sentence-bank.js';
import { indexByLemma, nounCaseError, plantTypo, tutorAccuracyBuilder, verbDependentError } from './tutor-accuracy.js';

const entries = readBunamo('data/sources/bunamo', ['noun', 'verb']).entries;
const nouns = indexByLemma(entries, 'noun');
const verbs = indexByLemma(entries, 'verb');
const bank = readSentenceBank('data/sources/irish-sentence-bank').sentences;
const tok = (text: string, lemma: string): BankToken => ({ slot: 1, text, lemmas: [lemma] });

describe('noun-case rule (nominative where the genitive is required)', () => {
  it('replaces a genitive singular by the nominative singular', () => {
    expect(nounCaseError(tok('sráide', 'sráid'), nouns)).toMatchObject({ wrong: 'sráid', topic: 'noun-case', formSource: { file: 'noun/sráid_fem2.xml', key: 'sgNom' } });
    expect(nounCaseError(tok('Dé', 'dia'), nouns)?.wrong).toBe('Dia');
  });

  it('keeps the initial mutation of the original token', () => {
    expect(nounCaseError(tok('tsaoil', 'saol'), nouns)?.wrong).toBe('tsaol');
    expect(nounCaseError(tok('shaoil', 'saol'), nouns)?.wrong).toBe('shaol');
  });

  it('leaves alone a form that is not only the genitive, and tokens with two lemmas', () => {
    expect(nounCaseError(tok('iarnróid', 'iarnród'), nouns)).toBeUndefined(); // also the nominative plural
    expect(nounCaseError(tok('sráid', 'sráid'), nouns)).toBeUndefined();
    expect(nounCaseError({ slot: 1, text: 'sráide', lemmas: ['sráid', 'an'] }, nouns)).toBeUndefined();
  });
});

describe('verb-dependent rule (independent form after a particle)', () => {
  it('replaces past and present dependent forms of irregular verbs by the lenited independent form', () => {
    expect(verbDependentError(tok('bhfuil', 'bí'), verbs)?.wrong).toBe('tá');
    expect(verbDependentError(tok('raibh', 'bí'), verbs)?.wrong).toBe('bhí');
    expect(verbDependentError(tok('bhfaca', 'feic'), verbs)?.wrong).toBe('chonaic');
    expect(verbDependentError(tok('fhaca', 'feic'), verbs)?.wrong).toBe('chonaic');
    expect(verbDependentError(tok('ndearna', 'déan'), verbs)?.wrong).toBe('rinne');
    expect(verbDependentError(tok('ndeachaigh', 'téigh'), verbs)?.wrong).toBe('chuaigh');
  });

  it('leaves alone forms that are also independent, and tenses it does not cover', () => {
    expect(verbDependentError(tok('fuair', 'faigh'), verbs)).toBeUndefined();
    expect(verbDependentError(tok('bhfaighidh', 'faigh'), verbs)).toBeUndefined(); // future: not covered
    expect(verbDependentError(tok('tá', 'bí'), verbs)).toBeUndefined();
  });
});

describe('plantTypo', () => {
  const s = bank.find(x => x.text === 'Abair liom a bhfuil uait.')!;
  const known = new Set(bank.flatMap(x => x.tokens.map(t => t.text.toLowerCase())));

  it('doubles one vowel of one word, the same way for the same seed', () => {
    const a = plantTypo(s, known, 7, 'irish')!;
    expect(plantTypo(s, known, 7, 'irish')).toEqual(a);
    expect(a.wrong.length).toBe(a.token.text.length + 1);
    expect(a.wrong).toMatch(/([aeiouáéíóú])\1/);
    expect(known.has(a.wrong.toLowerCase())).toBe(false);
    const seeds = new Set(Array.from({ length: 12 }, (_, k) => plantTypo(s, known, k, 'irish')!.wrong));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('rejects a result that is a known word', () => {
    const one = { ...s, tokens: [{ slot: 1, text: 'abcd', lemmas: [] }] };
    expect(plantTypo(one, new Set(['aabcd']), 1, 'irish')).toBeUndefined();
  });
});

describe('tutorAccuracyBuilder', () => {
  const items = (tutorAccuracyBuilder().build({ sourcesDir: 'data/sources', seed: 20261129, targetPerTest: 200 }) as { items: Item[] }).items;
  type Answer = { has_error: boolean; wrong_span: string | null; correction: string | null; corrected_sentence: string };

  it('builds 200 valid items, one third without an error, 20 public', () => {
    expect(items).toHaveLength(200);
    for (const i of items) expect(ItemSchema.safeParse(i).success).toBe(true);
    const none = items.filter(i => !(i.answer as Answer).has_error).length;
    expect(Math.abs(none / items.length - 1 / 3)).toBeLessThan(0.02);
    const pub = items.filter(i => i.visibility === 'public');
    expect(pub).toHaveLength(20);
    const pubNone = pub.filter(i => !(i.answer as Answer).has_error).length;
    expect(pubNone).toBe(7);
  });

  it('has answers consistent with the sentence: swap the wrong span back and get the original', () => {
    const byKey = new Map(bank.map(s => [`sentence #${s.index}`, s]));
    for (const i of items) {
      const a = i.answer as Answer;
      const s = byKey.get((i.source as { key: string }).key)!;
      expect(i.accepted).toEqual([s.text]);
      expect(a.corrected_sentence).toBe(s.text);
      const sentence = i.input.sentence as string;
      if (!a.has_error) {
        expect([sentence, a.wrong_span, a.correction, i.evidence, i.topic]).toEqual([s.text, null, null, 'corpus-reference', 'no-error']);
        continue;
      }
      expect(sentence).not.toBe(s.text);
      expect(sentence.split(a.wrong_span!).length).toBe(2);
      expect(sentence.replace(a.wrong_span!, a.correction!)).toBe(s.text);
      expect(i.evidence).toBe(i.topic === 'typo' ? 'planted-typo' : 'distractor-derived-unverified');
    }
  });

  it('uses each sentence once and publishes only potaL sentences', () => {
    const keys = items.map(i => (i.source as { key: string }).key);
    expect(new Set(keys).size).toBe(items.length);
    for (const i of items.filter(x => x.visibility === 'public')) expect((i.source as { key: string; sentenceSource: string }).sentenceSource).toBe('potaL');
  });
});
