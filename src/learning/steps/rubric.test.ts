import { describe, expect, it } from 'vitest';
import { RUBRIC, readRatings } from './rubric.js';

const all = (dim: 'd1' | 'd2', v: unknown) => Object.fromEntries(RUBRIC[dim].map(c => [c.key, v]));

describe('D1/D2 judge answers', () => {
  it('names the sub-dimensions of issue 12: five of D1, six of D2', () => {
    expect(RUBRIC.d1.map(c => c.key)).toEqual(['rule_coverage', 'data_fidelity', 'metalinguistic_accuracy', 'no_answer_leakage', 'appropriate_scope']);
    expect(RUBRIC.d2.map(c => c.key)).toEqual(['sequencing', 'cognitive_load', 'worked_examples', 'scaffolding', 'text_picture_integration', 'practice_quality']);
  });

  it('reads one JSON object with every sub-dimension an integer 1-5, around other text', () => {
    const read = readRatings('d1', `Here: ${JSON.stringify({ ...all('d1', 4), rationale: 'fine' })} done`);
    expect(read).toEqual({ ok: true, ratings: all('d1', 4), rationale: 'fine' });
  });

  it('says what is wrong with every field that does not fit', () => {
    const read = readRatings('d2', JSON.stringify({ ...all('d2', 3), sequencing: 6, scaffolding: 2.5, practice_quality: undefined }));
    expect(read).toEqual({ ok: false, problems: ['"sequencing" must be an integer from 1 to 5, got 6', '"scaffolding" must be an integer from 1 to 5, got 2.5', '"practice_quality" must be an integer from 1 to 5 (missing)'] });
    expect(readRatings('d1', 'no json here')).toEqual({ ok: false, problems: ['no JSON object in the answer'] });
    expect(readRatings('d1', '{"a": }').ok).toBe(false);
  });
});
