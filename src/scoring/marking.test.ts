import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Item, ScoreResult, Trial } from '../core/index.js';
import { loadItems } from '../suites/load.js';
import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { builtInScorers } from './builtins.js';
import { PIVOT_COPY_THRESHOLD } from './chrf/index.js';
import { balancedObjects, parseTutorAnswer } from './tutor-edit/index.js';

// Every marking rule, on real items of the shipped public samples.
const samples = fileURLToPath(new URL('../../data/samples', import.meta.url));
const items = new Map(loadItems([samples]).map(v => [v.item.id, v.item]));
const scorers = builtInScorers().forTests(BUILT_IN_TESTS.values());

function item(id: string): Item {
  const found = items.get(id);
  if (!found) throw new Error(`sample item ${id} is gone; pick another from data/samples`);
  return found;
}

/** Mark outputs of an item with its test's headline scorer, as the engine does. */
async function mark(id: string | Item, outputs: string[]): Promise<ScoreResult> {
  const it = typeof id === 'string' ? item(id) : id;
  const scorer = scorers.get(it.test)![0]!;
  const trial = { id: 't', runId: 'r', index: 0, itemId: it.id, itemHash: 'h', test: it.test, modelAlias: 'm', modelSpec: 'openai:m', promptVersion: 'v', repeat: 0, seed: 1 } satisfies Trial;
  return scorer.score({ item: it, trial, outputs });
}

const tutor = (answer: Record<string, unknown>) => JSON.stringify({ wrong_span: null, correction: null, explanation: 'Because.', ...answer });

describe('grammar_forms and exercises: exact match after light normalisation', () => {
  const form = 'irish/grammar_forms/adjective/antaigineach_adj1.xml#plNom'; // accepted: antaigineacha
  const graded = 'irish/grammar_forms/adjective/lacharnach_adj1.xml#graded'; // accepted: lacharnaí
  const exercise = 'blimp:anaphor_gender_agreement:37:exercises:es'; // options itself/himself, accepted himself

  it('accepts the listed form, ignoring case, outer spaces and Unicode composition', async () => {
    expect((await mark(form, ['antaigineacha'])).value).toBe(1);
    expect((await mark(form, ['  Antaigineacha \n'])).value).toBe(1);
    expect((await mark(graded, ['lacharnai\u0301'])).value).toBe(1); // i + combining acute = í
  });
  it('rejects another form of the lemma and an empty answer, with the reason', async () => {
    expect(await mark(form, ['antaigineach'])).toMatchObject({ value: 0, reason: 'no accepted answer matched' });
    expect(await mark(graded, ['lacharnai'])).toMatchObject({ value: 0 }); // the fada is part of the form
    expect(await mark(form, ['  '])).toMatchObject({ value: 0, reason: 'empty answer' });
  });
  it('marks an exercise by the chosen option', async () => {
    expect(item(exercise).input.options).toEqual(['itself', 'himself']);
    expect((await mark(exercise, ['himself'])).value).toBe(1);
    expect((await mark(exercise, ['Himself'])).value).toBe(1);
    expect(await mark(exercise, ['itself'])).toMatchObject({ value: 0, reason: 'no accepted answer matched' });
    expect((await mark(exercise, ['b) himself'])).value).toBe(0); // the option's words only, as the prompt asks
  });
});

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
    const source = String(item(trip).input.text);
    expect(await mark(trip, [source, source])).toMatchObject({ value: 0, reason: 'pivot step returned the source unchanged' });
    expect((await mark(trip, [`  ${source.toUpperCase()} `, source])).value).toBe(0); // light normalisation applies
  });
  it('gives 0 when the pivot step did not translate: the source quoted or lightly edited (chrF++ against the source >= the threshold)', async () => {
    const source = String(item(trip).input.text); // Glacfaidh an obair sé mhí.
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
    const genuine = [...items.values()].filter(it => it.test === 'round_trip');
    expect(genuine.length).toBe(20);
    for (const it of genuine) {
      const r = await mark(it.id, [String(it.pivot_reference), String(it.input.text)]);
      expect(r.value, it.id).toBeCloseTo(1, 12);
      expect(r.details?.pivotChrf as number, it.id).toBeLessThan(20); // measured 4.1-15.6
    }
    // A closer language pair may raise the threshold through the scorer's args.
    const strict = builtInScorers().create('round-trip-chrf', { wordOrder: 2, pivotCopyThreshold: 99 });
    expect(strict.ref).toMatchObject({ name: 'round-trip-chrf', version: '2' });
    const trial = { id: 't', runId: 'r', index: 0, itemId: trip, itemHash: 'h', test: 'round_trip', modelAlias: 'm', modelSpec: 'openai:m', promptVersion: 'v', repeat: 0, seed: 1 } satisfies Trial;
    const source = String(item(trip).input.text);
    expect((await strict.score({ item: item(trip), trial, outputs: [`"${source}"`, source] })).value).toBeGreaterThan(0.9);
  });
});

describe('tutor_accuracy: tutor-edit', () => {
  const en = 'blimp:determiner_noun_agreement_1:417:tutor_accuracy'; // The men could find these book. (book -> books)
  const enOk = 'blimp:anaphor_gender_agreement:237:tutor_accuracy'; // Joseph will care for himself. (no error)
  const ga = 'irish/tutor_accuracy/sentences.xml#1149/noun-case/slot3'; // Fostaí an chomhlacht. (chomhlacht -> chomhlachta)
  const gaTypo = 'irish/tutor_accuracy/sentences.xml#1087/typo'; // Dúúirt sé i gcogar liom é.
  const gaOk = 'irish/tutor_accuracy/sentences.xml#545/no-error'; // Bhí óige shona agam.

  it('is correct when the error is found and fixed, and nothing else changed', async () => {
    expect(await mark(en, [tutor({ has_error: true, wrong_span: 'book', correction: 'books', corrected_sentence: 'The men could find these books.' })]))
      .toMatchObject({ value: 1, details: { hasError: true, modelSaysError: true } });
    expect((await mark(ga, [tutor({ has_error: true, corrected_sentence: 'Fostaí an chomhlachta.' })])).value).toBe(1);
    expect((await mark(gaTypo, [tutor({ has_error: true, corrected_sentence: 'Dúirt sé i gcogar liom é.' })])).value).toBe(1);
  });
  it('reads the final answer of a reasoning model, never the draft inside <think>', async () => {
    const draft = tutor({ has_error: false, corrected_sentence: 'The men could find these book.' });
    const final = tutor({ has_error: true, wrong_span: 'book', correction: 'books', corrected_sentence: 'The men could find these books.' });
    expect((await mark(en, [`<think>First guess: ${draft}. No wait, "these" is plural.</think>\n${final}`])).value).toBe(1);
    expect((await mark(en, [`<think>${final}</think>\n${draft}`])).value).toBe(0);
  });
  it('is wrong when the fix comes with another change ("changed something else")', async () => {
    const r = await mark(en, [tutor({ has_error: true, corrected_sentence: 'The women could find these books.' })]);
    expect(r).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
    expect(r.reason).toMatch(/women/);
    const g = await mark(ga, [tutor({ has_error: true, corrected_sentence: 'Fostaithe an chomhlachta.' })]);
    expect(g).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
  });
  it('is wrong when the right word gets the wrong fix, or another word is changed instead', async () => {
    expect(await mark(ga, [tutor({ has_error: true, corrected_sentence: 'Fostaí an chomhlachtaí.' })])).toMatchObject({ value: 0, details: { editCode: 'wrong-edit' } });
    expect((await mark(en, [tutor({ has_error: true, corrected_sentence: 'The men could find this book.' })])).value).toBe(0);
  });
  it('is wrong when the error is missed', async () => {
    expect(await mark(en, [tutor({ has_error: false, corrected_sentence: 'The men could find these book.' })])).toMatchObject({ value: 0, reason: 'missed the error' });
    // Saying "error" but returning the sentence unchanged is a miss too.
    expect(await mark(en, [tutor({ has_error: true, corrected_sentence: 'The men could find these book.' })])).toMatchObject({ value: 0, details: { editCode: 'unchanged' } });
  });
  it('is wrong on a false alarm in a correct sentence', async () => {
    expect(await mark(enOk, [tutor({ has_error: true, wrong_span: 'himself', correction: 'herself', corrected_sentence: 'Joseph will care for herself.' })]))
      .toMatchObject({ value: 0, reason: 'flagged an error in a correct sentence', details: { hasError: false, modelSaysError: true } });
    expect(await mark(gaOk, [tutor({ has_error: true, corrected_sentence: 'Bhí óige sona agam.' })])).toMatchObject({ value: 0, reason: 'flagged an error in a correct sentence' });
  });
  it('is correct when a correct sentence is said to have no error and kept unchanged', async () => {
    expect((await mark(enOk, [tutor({ has_error: false, corrected_sentence: 'Joseph will care for himself.' })])).value).toBe(1);
    expect((await mark(gaOk, [tutor({ has_error: false, corrected_sentence: '  Bhí óige shona agam. ' })])).value).toBe(1);
    expect(await mark(gaOk, [tutor({ has_error: false, corrected_sentence: 'Bhí óige shona agamsa.' })]))
      .toMatchObject({ value: 0, reason: 'said there was no error but changed the sentence' });
  });
  it('marks an unparseable answer wrong with the reason, never throwing', async () => {
    const prose = await mark(en, ['The sentence should say "these books".']);
    expect(prose.value).toBe(0);
    expect(prose.reason).toMatch(/^unparseable answer: no JSON object/);
    const broken = await mark(en, ['{"has_error": tru, "corrected_sentence": "x"}']);
    expect(broken.value).toBe(0);
    expect(broken.reason).toMatch(/^unparseable answer/);
    const missing = await mark(en, [JSON.stringify({ has_error: true, explanation: 'plural' })]);
    expect(missing.value).toBe(0);
    expect(missing.reason).toMatch(/corrected_sentence/);
    expect((await mark(en, [''])).reason).toMatch(/^unparseable answer/);
  });
  it('reads JSON inside a code fence with text around it', async () => {
    const fenced = 'Here is my answer:\n```json\n' + tutor({ has_error: true, corrected_sentence: 'The men could find these books.' }) + '\n```\nHope this helps!';
    expect((await mark(en, [fenced])).value).toBe(1);
    const bare = '```\n' + tutor({ has_error: false, corrected_sentence: 'Joseph will care for himself.' }) + '\n```';
    expect((await mark(enOk, [bare])).value).toBe(1);
  });
  it('accepts a fix that matches any accepted correction, not only the answer key\'s', async () => {
    // The QA finding's item: the answer key corrects to "has", the accepted list also allows "had".
    const shaped = item(en);
    const she: Item = {
      ...shaped, id: 'qa:she-have', input: { sentence: 'She have two cats.', language: 'en' },
      accepted: ['She has two cats.', 'She had two cats.'],
      answer: { has_error: true, wrong_span: 'have', correction: 'has', corrected_sentence: 'She has two cats.' },
    };
    expect((await mark(she, [tutor({ has_error: true, corrected_sentence: 'She has two cats.' })])).value).toBe(1);
    expect(await mark(she, [tutor({ has_error: true, corrected_sentence: 'She had two cats.' })]))
      .toMatchObject({ value: 1, details: { matchedCorrection: 'She had two cats.' } });
    // Still one edit and nothing else; when none matches, the reason is the closest correction's.
    const extra = await mark(she, [tutor({ has_error: true, corrected_sentence: 'She had three cats.' })]);
    expect(extra).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
    expect(extra.reason).toBe('makes the expected edit(s) and 1 more: «two» → «three»');
    expect(await mark(she, [tutor({ has_error: true, corrected_sentence: 'She haves two cats.' })])).toMatchObject({ value: 0, details: { editCode: 'wrong-edit' } });
    // Without an answer key the accepted list alone decides.
    const { answer: _key, ...noKey } = she;
    expect((await mark(noKey, [tutor({ has_error: true, corrected_sentence: 'She had two cats.' })])).value).toBe(1);
    expect(await mark(noKey, [tutor({ has_error: false, corrected_sentence: 'She have two cats.' })])).toMatchObject({ value: 0, reason: 'missed the error' });
  });
  it('reads valid JSON followed (or preceded) by prose with braces, and records which candidate it used', async () => {
    const answer = tutor({ has_error: true, corrected_sentence: 'The men could find these books.' });
    expect(await mark(en, [`${answer}\nHope this helps {smile}`])).toMatchObject({ value: 1, details: { json: { from: 'braces', index: 0 } } });
    expect(await mark(en, [`Rule: {these} takes a plural noun {books}.\n${answer}`])).toMatchObject({ value: 1, details: { json: { from: 'braces', index: 2 } } });
    // Braces inside JSON strings do not end the object.
    const braced = JSON.stringify({ has_error: true, corrected_sentence: 'The men could find these books.', explanation: 'Plural: "these {N}" } needs N-s.' });
    expect(await mark(en, [`${braced} Cheers :-}`])).toMatchObject({ value: 1, details: { json: { from: 'braces', index: 0 } } });
    // Fenced blocks are tried first, in order; the first that fits the answer shape wins.
    const fences = 'The shape is:\n```json\n{"has_error": "true or false"}\n```\nMy answer:\n```json\n' + answer + '\n```\n{ok}';
    expect(await mark(en, [fences])).toMatchObject({ value: 1, details: { json: { from: 'fence', index: 1 } } });
    // No candidate fits: the first schema problem is the reason.
    expect((await mark(en, ['{"has_error": true} and {smile}'])).reason).toMatch(/^unparseable answer: corrected_sentence/);
    expect(parseTutorAnswer('{"has_error": tru}')).toMatchObject({ ok: false, reason: expect.stringMatching(/^unparseable answer: .*JSON/) });
    expect(balancedObjects('a {b "}" {c}} d {e} {unclosed {f}')).toEqual([[2, 13], [16, 19], [30, 33]]);
  });
  it('treats a change of case as a change: a lower-cased correct sentence is not "unchanged", nor is a fix that lower-cases another word', async () => {
    expect(await mark(enOk, [tutor({ has_error: false, corrected_sentence: 'joseph will care for himself.' })]))
      .toMatchObject({ value: 0, reason: 'said there was no error but changed the sentence' });
    expect((await mark(gaOk, [tutor({ has_error: false, corrected_sentence: 'bhí óige shona agam.' })])).value).toBe(0);
    const lowered = await mark(en, [tutor({ has_error: true, corrected_sentence: 'the men could find these books.' })]);
    expect(lowered).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
    expect(lowered.reason).toMatch(/«The» → «the»/);
    expect((await mark(ga, [tutor({ has_error: true, corrected_sentence: 'Fostaí An chomhlachta.' })])).value).toBe(0);
    // What is still forgiven: Unicode composition, outer and inner whitespace.
    expect((await mark(gaOk, [tutor({ has_error: false, corrected_sentence: 'Bhí  óige shona agam.'.normalize('NFD') })])).value).toBe(1);
    expect((await mark(ga, [tutor({ has_error: true, corrected_sentence: ' Fostaí an  chomhlachta.'.normalize('NFD') })])).value).toBe(1);
  });
  it('gives the gold answer the tutor prompt renders for baseline:gold full marks on every sample item', async () => {
    for (const it of items.values()) {
      if (it.test !== 'tutor_accuracy') continue;
      const gold = BUILT_IN_TESTS.get('tutor_accuracy')!.render(it, [])!.hints!.gold!;
      expect((await mark(it.id, [gold])).value, it.id).toBe(1);
    }
  });
});
