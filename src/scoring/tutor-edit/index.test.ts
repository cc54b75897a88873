import { describe, expect, it } from 'vitest';
import type { Item } from '../../core/index.js';
import { BUILT_IN_TESTS } from '../../suites/tests/index.js';
import { mark, sampleItem, sampleItems, tutorAnswer } from '../testing/samples.js';
import { balancedObjects, parseTutorAnswer } from './index.js';

describe('tutor_accuracy: tutor-edit', () => {
  const en = 'blimp:determiner_noun_agreement_1:417:tutor_accuracy'; // The men could find these book. (book -> books)
  const enOk = 'blimp:anaphor_gender_agreement:237:tutor_accuracy'; // Joseph will care for himself. (no error)
  const ga = 'irish/tutor_accuracy/sentences.xml#1149/noun-case/slot3'; // Fostaí an chomhlacht. (chomhlacht -> chomhlachta)
  const gaTypo = 'irish/tutor_accuracy/sentences.xml#1087/typo'; // Dúúirt sé i gcogar liom é.
  const gaOk = 'irish/tutor_accuracy/sentences.xml#545/no-error'; // Bhí óige shona agam.

  it('is correct when the error is found and fixed, and nothing else changed', async () => {
    expect(await mark(en, [tutorAnswer({ has_error: true, wrong_span: 'book', correction: 'books', corrected_sentence: 'The men could find these books.' })]))
      .toMatchObject({ value: 1, details: { hasError: true, modelSaysError: true } });
    expect((await mark(ga, [tutorAnswer({ has_error: true, corrected_sentence: 'Fostaí an chomhlachta.' })])).value).toBe(1);
    expect((await mark(gaTypo, [tutorAnswer({ has_error: true, corrected_sentence: 'Dúirt sé i gcogar liom é.' })])).value).toBe(1);
  });
  it('reads the final answer of a reasoning model, never the draft inside <think>', async () => {
    const draft = tutorAnswer({ has_error: false, corrected_sentence: 'The men could find these book.' });
    const final = tutorAnswer({ has_error: true, wrong_span: 'book', correction: 'books', corrected_sentence: 'The men could find these books.' });
    expect((await mark(en, [`<think>First guess: ${draft}. No wait, "these" is plural.</think>\n${final}`])).value).toBe(1);
    expect((await mark(en, [`<think>${final}</think>\n${draft}`])).value).toBe(0);
  });
  it('is wrong when the fix comes with another change ("changed something else")', async () => {
    const r = await mark(en, [tutorAnswer({ has_error: true, corrected_sentence: 'The women could find these books.' })]);
    expect(r).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
    expect(r.reason).toMatch(/women/);
    const g = await mark(ga, [tutorAnswer({ has_error: true, corrected_sentence: 'Fostaithe an chomhlachta.' })]);
    expect(g).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
  });
  it('is wrong when the right word gets the wrong fix, or another word is changed instead', async () => {
    expect(await mark(ga, [tutorAnswer({ has_error: true, corrected_sentence: 'Fostaí an chomhlachtaí.' })])).toMatchObject({ value: 0, details: { editCode: 'wrong-edit' } });
    expect((await mark(en, [tutorAnswer({ has_error: true, corrected_sentence: 'The men could find this book.' })])).value).toBe(0);
  });
  it('is wrong when the error is missed', async () => {
    expect(await mark(en, [tutorAnswer({ has_error: false, corrected_sentence: 'The men could find these book.' })])).toMatchObject({ value: 0, reason: 'missed the error' });
    // Saying "error" but returning the sentence unchanged is a miss too.
    expect(await mark(en, [tutorAnswer({ has_error: true, corrected_sentence: 'The men could find these book.' })])).toMatchObject({ value: 0, details: { editCode: 'unchanged' } });
  });
  it('is wrong on a false alarm in a correct sentence', async () => {
    expect(await mark(enOk, [tutorAnswer({ has_error: true, wrong_span: 'himself', correction: 'herself', corrected_sentence: 'Joseph will care for herself.' })]))
      .toMatchObject({ value: 0, reason: 'flagged an error in a correct sentence', details: { hasError: false, modelSaysError: true } });
    expect(await mark(gaOk, [tutorAnswer({ has_error: true, corrected_sentence: 'Bhí óige sona agam.' })])).toMatchObject({ value: 0, reason: 'flagged an error in a correct sentence' });
  });
  it('is correct when a correct sentence is said to have no error and kept unchanged', async () => {
    expect((await mark(enOk, [tutorAnswer({ has_error: false, corrected_sentence: 'Joseph will care for himself.' })])).value).toBe(1);
    expect((await mark(gaOk, [tutorAnswer({ has_error: false, corrected_sentence: '  Bhí óige shona agam. ' })])).value).toBe(1);
    expect(await mark(gaOk, [tutorAnswer({ has_error: false, corrected_sentence: 'Bhí óige shona agamsa.' })]))
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
    const fenced = 'Here is my answer:\n```json\n' + tutorAnswer({ has_error: true, corrected_sentence: 'The men could find these books.' }) + '\n```\nHope this helps!';
    expect((await mark(en, [fenced])).value).toBe(1);
    const bare = '```\n' + tutorAnswer({ has_error: false, corrected_sentence: 'Joseph will care for himself.' }) + '\n```';
    expect((await mark(enOk, [bare])).value).toBe(1);
  });
  it('accepts a fix that matches any accepted correction, not only the answer key\'s', async () => {
    // The QA finding's item: the answer key corrects to "has", the accepted list also allows "had".
    const shaped = sampleItem(en);
    const she: Item = {
      ...shaped, id: 'qa:she-have', input: { sentence: 'She have two cats.', language: 'en' },
      accepted: ['She has two cats.', 'She had two cats.'],
      answer: { has_error: true, wrong_span: 'have', correction: 'has', corrected_sentence: 'She has two cats.' },
    };
    expect((await mark(she, [tutorAnswer({ has_error: true, corrected_sentence: 'She has two cats.' })])).value).toBe(1);
    expect(await mark(she, [tutorAnswer({ has_error: true, corrected_sentence: 'She had two cats.' })]))
      .toMatchObject({ value: 1, details: { matchedCorrection: 'She had two cats.' } });
    // Still one edit and nothing else; when none matches, the reason is the closest correction's.
    const extra = await mark(she, [tutorAnswer({ has_error: true, corrected_sentence: 'She had three cats.' })]);
    expect(extra).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
    expect(extra.reason).toBe('makes the expected edit(s) and 1 more: «two» → «three»');
    expect(await mark(she, [tutorAnswer({ has_error: true, corrected_sentence: 'She haves two cats.' })])).toMatchObject({ value: 0, details: { editCode: 'wrong-edit' } });
    // Without an answer key the accepted list alone decides.
    const { answer: _key, ...noKey } = she;
    expect((await mark(noKey, [tutorAnswer({ has_error: true, corrected_sentence: 'She had two cats.' })])).value).toBe(1);
    expect(await mark(noKey, [tutorAnswer({ has_error: false, corrected_sentence: 'She have two cats.' })])).toMatchObject({ value: 0, reason: 'missed the error' });
  });
  it('reads valid JSON followed (or preceded) by prose with braces, and records which candidate it used', async () => {
    const answer = tutorAnswer({ has_error: true, corrected_sentence: 'The men could find these books.' });
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
    expect(await mark(enOk, [tutorAnswer({ has_error: false, corrected_sentence: 'joseph will care for himself.' })]))
      .toMatchObject({ value: 0, reason: 'said there was no error but changed the sentence' });
    expect((await mark(gaOk, [tutorAnswer({ has_error: false, corrected_sentence: 'bhí óige shona agam.' })])).value).toBe(0);
    const lowered = await mark(en, [tutorAnswer({ has_error: true, corrected_sentence: 'the men could find these books.' })]);
    expect(lowered).toMatchObject({ value: 0, details: { editCode: 'extra-edits' } });
    expect(lowered.reason).toMatch(/«The» → «the»/);
    expect((await mark(ga, [tutorAnswer({ has_error: true, corrected_sentence: 'Fostaí An chomhlachta.' })])).value).toBe(0);
    // What is still forgiven: Unicode composition, outer and inner whitespace.
    expect((await mark(gaOk, [tutorAnswer({ has_error: false, corrected_sentence: 'Bhí  óige shona agam.'.normalize('NFD') })])).value).toBe(1);
    expect((await mark(ga, [tutorAnswer({ has_error: true, corrected_sentence: ' Fostaí an  chomhlachta.'.normalize('NFD') })])).value).toBe(1);
  });
  it('gives the gold answer the tutor prompt renders for baseline:gold full marks on every sample item', async () => {
    for (const it of sampleItems()) {
      if (it.test !== 'tutor_accuracy') continue;
      const gold = BUILT_IN_TESTS.get('tutor_accuracy')!.render(it, [])!.hints!.gold!;
      expect((await mark(it.id, [gold])).value, it.id).toBe(1);
    }
  });
});
