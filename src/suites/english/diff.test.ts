import { describe, expect, it } from 'vitest';
import { readBlimp, type BlimpRecord } from '../sources/blimp.js';
import { diffRecord, diffSentences, type PairDiff } from './diff.js';

const paradigms = readBlimp('data/sources');

function record(uid: string, pairID: string): BlimpRecord {
  const found = paradigms.find(p => p.uid === uid)?.records.find(r => r.pairID === pairID);
  if (!found) throw new Error(`no record ${uid} ${pairID}`);
  return found;
}

function span(diff: PairDiff): [string, string] {
  if (diff.kind !== 'span') throw new Error(`expected a span, got ${diff.kind}`);
  return [diff.bad.text, diff.good.text];
}

describe('diffRecord on shipped BLiMP records', () => {
  it("finds 'reference' -> 'references' in 'Paula reference Robert.'", () => {
    const diff = diffRecord(record('regular_plural_subject_verb_agreement_1', '0'));
    expect(span(diff)).toEqual(['reference', 'references']);
    expect(diff).toMatchObject({ before: 'Paula ', after: ' Robert.', widened: false });
  });

  it('finds the one differing word inside a two-word one_prefix_word (grocery store/stores)', () => {
    expect(span(diffRecord(record('determiner_noun_agreement_1', '1')))).toEqual(['stores', 'store']);
  });

  it('finds went/gone inside the one_prefix_word "went bad"', () => {
    expect(span(diffRecord(record('irregular_past_participle_verbs', '2')))).toEqual(['gone', 'went']);
  });

  it('finds the subject in a two-prefix paradigm (The student perform.)', () => {
    const diff = diffRecord(record('regular_plural_subject_verb_agreement_2', '0'));
    expect(span(diff)).toEqual(['student', 'students']);
  });

  it('takes multi-word spans whole (wakes up / returned to; gone to / smiled)', () => {
    expect(span(diffRecord(record('intransitive', '41')))).toEqual(['returned to', 'wakes up']);
    expect(span(diffRecord(record('transitive', '9')))).toEqual(['smiled', 'gone to']);
  });

  it('widens a missing or extra word by its left neighbour so neither side is empty', () => {
    const extra = diffRecord(record('intransitive', '624'));
    expect(span(extra)).toEqual(['disagree with', 'disagree']);
    expect(extra).toMatchObject({ widened: true, before: 'Most commentaries about the Balkans will ', after: '.' });
    const missing = diffRecord(record('transitive', '156'));
    expect(span(missing)).toEqual(['disagreed', 'disagreed with']);
  });

  it('gives every shipped pair a single span that rebuilds both sentences exactly', () => {
    for (const p of paradigms) {
      for (const r of p.records) {
        const diff = diffRecord(r);
        expect(diff.kind, `${p.uid} ${r.pairID}`).toBe('span');
        if (diff.kind !== 'span') continue;
        expect(diff.before + diff.good.text + diff.after).toBe(r.sentence_good);
        expect(diff.before + diff.bad.text + diff.after).toBe(r.sentence_bad);
      }
    }
  });

  it('skips a record whose prefix fields disagree with its word difference', () => {
    const tampered = { ...record('anaphor_gender_agreement', '0'), one_prefix_prefix: "Katherine can't" };
    expect(diffRecord(tampered)).toEqual({ kind: 'prefix-fields-disagree' });
    const twoPrefix = { ...record('transitive', '0'), two_prefix_prefix_bad: 'Some turtles' };
    expect(diffRecord(twoPrefix)).toEqual({ kind: 'prefix-fields-disagree' });
  });
});

describe('diffSentences on pairs no shipped paradigm has', () => {
  // Constructed: the shipped 13 paradigms all differ in one span, so these paths need made-up pairs.
  it('refuses a pair that differs in two places', () => {
    expect(diffSentences('This dog sees these cats.', 'These dog sees this cats.')).toEqual({ kind: 'not-contiguous' });
  });

  it('refuses identical sentences and sentences that differ only in spacing', () => {
    expect(diffSentences('Paula references Robert.', 'Paula references Robert.')).toEqual({ kind: 'identical' });
    expect(diffSentences('Paula references  Robert.', 'Paula referenced Robert.')).toEqual({ kind: 'spacing-differs' });
  });

  it('widens to the right when the added word is the first', () => {
    const diff = diffSentences('Dogs bark.', 'Big Dogs bark.');
    expect(span(diff)).toEqual(['Big Dogs', 'Dogs']);
    expect(diff).toMatchObject({ widened: true, before: '', after: ' bark.' });
  });

  it('treats a case change as a difference (the span keeps its capital)', () => {
    expect(span(diffSentences('Dogs bark.', 'The dogs bark.'))).toEqual(['The dogs', 'Dogs']);
  });

  it('tokenizes as marking does: a decimal and a letter with a combining mark are one token each', () => {
    // The suite's former tokenizer split "3.5" into 3 . 5 and "nai\u0308ve" at the mark, naming a
    // span ("5", or half a word) that marking, which sees whole tokens, never reports.
    expect(span(diffSentences('It costs 3.5 euros.', 'It costs 3.6 euros.'))).toEqual(['3.6', '3.5']);
    expect(span(diffSentences('A nai\u0308ve plan.', 'A nai\u0308vely plan.'))).toEqual(['nai\u0308vely', 'nai\u0308ve']);
  });

  it('compares tokens as marking does: apostrophe look-alikes are the same token', () => {
    expect(diffSentences("Katherine can't help herself.", 'Katherine can\u2019t help herself.')).toEqual({ kind: 'identical' });
  });
});
