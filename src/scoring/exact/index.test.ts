import { describe, expect, it } from 'vitest';
import { mark, sampleItem } from '../testing/samples.js';

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
    expect(sampleItem(exercise).input.options).toEqual(['itself', 'himself']);
    expect((await mark(exercise, ['himself'])).value).toBe(1);
    expect((await mark(exercise, ['Himself'])).value).toBe(1);
    expect(await mark(exercise, ['itself'])).toMatchObject({ value: 0, reason: 'no accepted answer matched' });
    expect((await mark(exercise, ['b) himself'])).value).toBe(0); // the option's words only, as the prompt asks
  });
});
