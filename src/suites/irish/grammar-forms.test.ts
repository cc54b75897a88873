import { describe, expect, it } from 'vitest';
import { ItemSchema, type Item } from '../../core/item.js';
import { readBunamo, type BunamoEntry } from '../sources/bunamo.js';
import { SKIP, entrySlots, formSlots, grammarFormsBuilder } from './grammar-forms.js';

const read = readBunamo('data/sources/bunamo', ['noun', 'adjective', 'verb', 'preposition']);
const entry = (file: string): BunamoEntry => read.entries.find(e => e.file === file)!;
const skipped = new Map<string, number>();
const slots = formSlots(read.entries, skipped);
const slot = (file: string, form: string) => slots.find(s => s.entry.file === file && s.form === form);

describe('grammar_forms slots', () => {
  it('asks for the genitive singular of iarnród and accepts iarnróid, with the gender', () => {
    expect(slot('noun/iarnród_masc1.xml', 'sgGen')).toMatchObject({ pos: 'noun', formLabel: 'genitive singular', forms: ['iarnróid'], gender: 'masc' });
    expect(slot('noun/iarnród_masc1.xml', 'plNom')?.forms).toEqual(['iarnróid']);
  });

  it('leaves out a form equal to the lemma (iarnród genitive plural, the unmutated past and the imperative of regular verbs)', () => {
    expect(slot('noun/iarnród_masc1.xml', 'plGen')).toBeUndefined();
    expect(slot('verb/breac_verb.xml', 'Past.Indep.Base')).toBeUndefined();
    expect(slot('verb/breac_verb.xml', 'Imper.Sg2')).toBeUndefined();
    expect(skipped.get(SKIP.lemma)).toBeGreaterThan(1000);
  });

  it('accepts every form of a multi-form slot (feic: two verbal nouns)', () => {
    expect(slot('verb/feic_verb.xml', 'verbalNoun')).toMatchObject({ formLabel: 'verbal noun', forms: ['feiceáil', 'feiscint'] });
  });

  it('keeps dependent forms only where they differ from the independent ones', () => {
    expect(slot('verb/feic_verb.xml', 'Past.Dep.Base')?.forms).toEqual(['faca']);
    expect(slot('verb/feic_verb.xml', 'Past.Indep.Base')).toMatchObject({
      forms: ['conaic'],
      formLabel: 'past tense, independent form, analytic form (used with a separate subject) (without initial mutation)',
    });
    expect(slot('verb/bí_verb.xml', 'Pres.Dep.Base')?.forms).toEqual(['fuil']);
    expect(slot('verb/breac_verb.xml', 'Fut.Indep.Pl1')?.forms).toEqual(['breacfaimid']);
    expect(slot('verb/breac_verb.xml', 'Fut.Dep.Pl1')).toBeUndefined();
    expect(slot('verb/feic_verb.xml', 'PastCont.Dep.Sg1')).toBeUndefined();
    expect(slot('verb/feic_verb.xml', 'Subj.Base')).toBeUndefined();
  });

  it('labels adjectives and prepositional pronouns in plain English', () => {
    expect(slot('adjective/ciúin_adj1.xml', 'sgGenFem')).toMatchObject({ formLabel: 'genitive singular feminine', forms: ['ciúine'] });
    expect(slot('adjective/ciúin_adj1.xml', 'graded')).toMatchObject({ formLabel: 'comparative', forms: ['ciúine'] });
    expect(slot('adjective/ciúin_adj1.xml', 'sgGenMasc')).toBeUndefined(); // ciúin: equal to the lemma
    const adj = slots.find(s => s.pos === 'adjective' && s.form === 'sgGenMasc')!;
    expect(adj.formLabel).toBe('genitive singular masculine (without initial mutation)');
    expect(adj.gender).toBeUndefined();
    expect(slot('preposition/ag_prep.xml', 'sg3Fem')).toMatchObject({ formLabel: '3rd person singular feminine', forms: ['aici'] });
    expect(slots.filter(s => s.entry.file === 'preposition/idir_prep.xml').map(s => s.form)).toEqual(['pl1', 'pl2', 'pl3']);
  });

  it('skips the entry with « and counts it', () => {
    expect(slots.some(s => s.entry.lemma.includes('«'))).toBe(false);
    expect(skipped.get(SKIP.guillemet)).toBe(1);
  });

  it('drops homographs that disagree and keeps one of those that agree', () => {
    const e = entry('noun/iarnród_masc1.xml');
    const twin = { ...e, file: 'noun/iarnród_masc1_x.xml', slots: e.slots.map(s => (s.element === 'sgGen' ? { ...s, value: 'iarnróide' } : s)) };
    const same = { ...e, file: 'noun/iarnród_masc1_y.xml' };
    const m = new Map<string, number>();
    const out = formSlots([e, twin, same], m);
    expect(out.map(s => s.form)).toEqual(['plNom']);
    expect(m.get(SKIP.homograph)).toBe(3);
  });

  it('lists the slots of an entry before the lemma check', () => {
    const m = new Map<string, number>();
    expect(entrySlots(entry('noun/iarnród_masc1.xml'), m).map(s => s.form)).toEqual(['sgGen', 'plNom', 'plGen']);
  });
});

describe('grammarFormsBuilder', () => {
  const result = grammarFormsBuilder().build({ sourcesDir: 'data/sources', seed: 20261129, targetPerTest: 200 });
  const items = (result as { items: Item[] }).items;

  it('builds 200 valid items, 50 per part of speech, 20 public', () => {
    expect(items).toHaveLength(200);
    for (const i of items) expect(ItemSchema.safeParse(i).success).toBe(true);
    const topics = new Map<string, number>();
    for (const i of items) topics.set(i.topic!, (topics.get(i.topic!) ?? 0) + 1);
    expect(Object.fromEntries(topics)).toEqual({ adjective: 50, noun: 50, preposition: 50, verb: 50 });
    expect(items.filter(i => i.visibility === 'public')).toHaveLength(20);
  });

  it('copies the answer from the file the item names', () => {
    for (const i of items) {
      const src = i.source as { file: string; key: string };
      const s = slots.find(x => x.entry.file === src.file && x.form === src.key)!;
      expect(i.accepted).toEqual(s.forms);
      expect(i.input).toMatchObject({ lemma: s.entry.lemma, pos: s.pos, form: s.form, formLabel: s.formLabel });
      expect(i.id).toBe(`irish/grammar_forms/${src.file}#${src.key}`);
      expect(i).toMatchObject({ language: 'ga', licence: 'ODbL-1.0', evidence: 'bunamo-form', contamination: 'public-source', human_checked: false });
      expect(i.level).toBeUndefined();
    }
  });

  it('spreads each part of speech over many lemmas', () => {
    const verbs = new Set(items.filter(i => i.topic === 'verb').map(i => (i.source as { file: string }).file));
    expect(verbs.size).toBe(50);
  });
});
