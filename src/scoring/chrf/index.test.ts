import { describe, expect, it } from 'vitest';
import { builtInScorers } from '../builtins.js';
import { mark, sampleItem, sampleItems, trialFor } from '../testing/samples.js';
import { PIVOT_COPY_THRESHOLD } from './index.js';

describe('translation and round_trip: chrF++ with the signature stored', () => {
  const en2ga = 'irish/translation/sentences.xml#1032/en-ga'; // Twice as much money. -> Dhá oiread an airgid.
  const trip = 'irish/round_trip/sentences.xml#1205'; // Glacfaidh an obair sé mhí.

  it('scores the reference 1, a near miss in between and the untranslated source low', async () => {
    const gold = await mark(en2ga, ['Dhá oiread an airgid.']);
    expect(gold.value).toBeCloseTo(1, 12);
    expect(gold.details?.signature).toMatch(/nw:2/);
    const near = await mark(en2ga, ['Dhá oiread airgid.']);
    expect(near.value).toBeGreaterThan(0.5);
    expect(near.value).toBeLessThan(1);
    const copy = await mark(en2ga, ['Twice as much money.']);
    expect(copy.value).toBeLessThan(0.2);
    expect(await mark(en2ga, [''])).toMatchObject({ value: 0, reason: 'empty answer' });
  });
  it('scores the back-translation against the original', async () => {
    const r = await mark(trip, ['The work will take six months.', 'Glacfaidh an obair sé mhí.']);
    expect(r.value).toBeCloseTo(1, 12);
    expect(r.details).toMatchObject({ pivot: 'The work will take six months.' });
    expect(r.details?.signature).toMatch(/nw:2/);
    const partial = await mark(trip, ['The work will take six months.', 'Tógfaidh an obair sé mhí.']);
    expect(partial.value).toBeGreaterThan(0.3);
    expect(partial.value).toBeLessThan(1);
  });
  it('gives 0 when the pivot step returned the source, even with a perfect back-translation', async () => {
    const source = String(sampleItem(trip).input.text);
    expect(await mark(trip, [source, source])).toMatchObject({ value: 0, reason: 'pivot step returned the source unchanged' });
    expect((await mark(trip, [`  ${source.toUpperCase()} `, source])).value).toBe(0); // light normalisation applies
  });
  it('gives 0 when the pivot step did not translate: the source quoted or lightly edited (chrF++ against the source >= the threshold)', async () => {
    const source = String(sampleItem(trip).input.text); // Glacfaidh an obair sé mhí.
    // The QA finding: the source in quotes at both steps scored 87.5 under version 1.
    const quoted = await mark(trip, [`"${source}"`, `"${source}"`]);
    expect(quoted).toMatchObject({ value: 0, details: { pivotCopyThreshold: PIVOT_COPY_THRESHOLD } });
    expect(quoted.reason).toMatch(/^pivot step did not translate: chrF\+\+ of the pivot against the source is \d+\.\d \(>= 65\)$/);
    expect(quoted.details?.pivotChrf).toBeGreaterThanOrEqual(PIVOT_COPY_THRESHOLD);
    for (const pivot of [`“${source}”`, `Translation: ${source}`, `Here is the English translation:\n\n${source}`, source.toLowerCase()]) {
      expect((await mark(trip, [pivot, source])).value, pivot).toBe(0);
    }
  });
  it('lets every genuine translation of the public samples through the pivot guard', async () => {
    const genuine = sampleItems().filter(it => it.test === 'round_trip');
    expect(genuine.length).toBe(20);
    for (const it of genuine) {
      const r = await mark(it.id, [String(it.pivot_reference), String(it.input.text)]);
      expect(r.value, it.id).toBeCloseTo(1, 12);
      expect(r.details?.pivotChrf as number, it.id).toBeLessThan(20); // measured 4.1-15.6
    }
    // A closer language pair may raise the threshold through the scorer's args.
    const strict = builtInScorers().create('round-trip-chrf', { wordOrder: 2, pivotCopyThreshold: 99 });
    expect(strict.ref).toMatchObject({ name: 'round-trip-chrf', version: '2' });
    const trial = trialFor(sampleItem(trip));
    const source = String(sampleItem(trip).input.text);
    expect((await strict.score({ item: sampleItem(trip), trial, outputs: [`"${source}"`, source] })).value).toBeGreaterThan(0.9);
  });
});
