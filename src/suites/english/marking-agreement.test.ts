import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../core/item.js';
import { editDiff, tokenize } from '../../metrics/edit-diff.js';
import { TUTOR_EDIT_NORMALIZE, tutorEditScorer } from '../../scoring/tutor-edit/index.js';
import { readBlimp, type BlimpRecord } from '../sources/blimp.js';
import { diffRecord, type SpanDiff } from './diff.js';

// Building (the span an item names) and marking (the edits the tutor-edit scorer finds) must agree:
// an answer that fixes exactly the built span is marked correct, and marking sees the same span.
const paradigms = readBlimp('data/sources');
const byKey = new Map<string, BlimpRecord>(paradigms.flatMap(p => p.records.map(r => [`${p.file} ${r.pairID}`, r] as const)));
const samples = (test: string): Item[] =>
  readFileSync(`data/samples/english/${test}.jsonl`, 'utf8').trim().split('\n').map(l => JSON.parse(l) as Item);
const sourceRecord = (item: Item): BlimpRecord => {
  const src = item.source as { file: string; key: string };
  const r = byKey.get(`${src.file} ${src.key.replace(/^pairID /, '')}`);
  if (!r) throw new Error(`no BLiMP record for ${item.id}`);
  return r;
};
const spanOf = (r: BlimpRecord): SpanDiff => {
  const d = diffRecord(r);
  if (d.kind !== 'span') throw new Error(`record ${r.pairID} has no span: ${d.kind}`);
  return d;
};

/** Token range [from, to) of `text` that a character span covers. */
function tokenRange(text: string, span: { start: number; end: number }): [number, number] {
  const inside = tokenize(text).map((t, i) => [t, i] as const).filter(([t]) => t.start >= span.start && t.end <= span.end);
  return [inside[0]![1], inside.at(-1)![1] + 1];
}

/**
 * Marking finds one hunk from the learner's sentence to the correction, and it lies inside the
 * built span on both sides (an insert's point may be the span's end); unless the span was widened
 * by a neighbouring word, the hunk is the span.
 */
function expectMarkingSeesSpan(bad: string, good: string, d: SpanDiff, what: string) {
  const marked = editDiff(bad, good, { normalize: TUTOR_EDIT_NORMALIZE }).changes;
  expect(marked, what).toHaveLength(1);
  const c = marked[0]!;
  const [bFrom, bTo] = tokenRange(bad, d.bad);
  const [gFrom, gTo] = tokenRange(good, d.good);
  expect(c.sourceStart >= bFrom && c.sourceEnd <= bTo, `${what}: source tokens ${c.sourceStart}-${c.sourceEnd} in ${bFrom}-${bTo}`).toBe(true);
  expect(c.targetStart >= gFrom && c.targetEnd <= gTo, `${what}: target tokens ${c.targetStart}-${c.targetEnd} in ${gFrom}-${gTo}`).toBe(true);
  if (!d.widened) expect([c.sourceText, c.targetText], what).toEqual([d.bad.text, d.good.text]);
}

describe('tutor items: building and marking agree on every span (data/samples/english)', () => {
  const items = samples('tutor_accuracy').filter(i => (i.answer as { has_error: boolean }).has_error);

  it('has sample items with an error to check', () => expect(items.length).toBeGreaterThanOrEqual(10));

  for (const item of items) {
    it(item.id, () => {
      const r = sourceRecord(item);
      const d = spanOf(r);
      const key = item.answer as { wrong_span: string; correction: string; corrected_sentence: string };
      expect(item.input.sentence).toBe(r.sentence_bad);
      expect([key.wrong_span, key.correction]).toEqual([d.bad.text, d.good.text]);
      expectMarkingSeesSpan(r.sentence_bad, r.sentence_good, d, item.id);
      // A tutor replacing exactly the built span by the built correction is marked correct.
      const fixed = d.before + key.correction + d.after;
      const answer = JSON.stringify({ has_error: true, wrong_span: key.wrong_span, correction: key.correction, corrected_sentence: fixed });
      expect(tutorEditScorer().score({ item, outputs: [answer] } as never)).toMatchObject({ value: 1 });
    });
  }
});

describe('exercise items: the two options are the span marking finds (data/samples/english)', () => {
  for (const item of samples('exercises')) {
    it(item.id, () => {
      const r = sourceRecord(item);
      const d = spanOf(r);
      expect([...(item.input.options as string[])].sort()).toEqual([d.bad.text, d.good.text].sort());
      expectMarkingSeesSpan(r.sentence_bad, r.sentence_good, d, item.id);
    });
  }
});

describe('every shipped BLiMP pair: the built span is the one hunk marking finds', () => {
  it('agrees on all of data/sources/blimp', () => {
    let checked = 0;
    for (const p of paradigms) {
      for (const r of p.records) {
        const d = diffRecord(r);
        if (d.kind !== 'span') continue;
        expectMarkingSeesSpan(r.sentence_bad, r.sentence_good, d, `${p.uid} ${r.pairID}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
