import { describe, expect, it } from 'vitest';
import type { ChatResult, StepCall, StepOutcome, Trial } from '../../core/index.js';
import type { Study } from './load.js';
import { planStudyTrials } from './plan.js';
import { ratingStep } from './step.js';

const study: Study = {
  specVersion: 'paideia.validity-study.v1', name: 's', file: 's.yaml', source: { type: 'inline' },
  observations: [{ id: 'o1', text: 'Teacher: What do you notice about 2, 4, 8?' }],
  items: [{ id: 'uptake', construct: 'builds on what the student said', scale: { min: 1, max: 3 }, levels: { 1: 'ignores the student', 3: 'builds on it' } }],
  families: ['base', 'cot', 'rubric'], raters: [{ alias: 'a', provider: 'openai', model: 'm', spec: 'openai:m' }], repeats: 2, seed: 1, params: { temperature: 0 },
};
const trials = planStudyTrials(study, 'val-1');
const step = ratingStep(study);
const answer = (text: string): ChatResult => ({ text, warnings: [] });
const trialOf = (family: string, repeat = 0): Trial => trials.find(t => t.variant === family && t.repeat === repeat)!;

describe('the rating step', () => {
  it('plans observation x item x family x rater x repeat cells with distinct ids', () => {
    expect(trials).toHaveLength(6);
    expect(new Set(trials.map(t => t.id)).size).toBe(6);
    expect(trials.map(t => `${t.variant}/${t.repeat}`)).toEqual(['base/0', 'base/1', 'cot/0', 'cot/1', 'rubric/0', 'rubric/1']);
  });

  it('asks each family in its own form; repeats are distinct samples of one request', async () => {
    const ask = async (t: Trial) => (await step.next({ trial: t, results: [] })) as StepCall;
    const [base, cot, rubric] = await Promise.all(['base', 'cot', 'rubric'].map(f => ask(trialOf(f))));
    const last = (c: StepCall) => c.request.messages.at(-1)!.content;
    expect(last(base!)).toMatch(/Answer with the rating only: one whole number from 1 to 3\.$/);
    expect(last(cot!)).toMatch(/Reasoning: <your reasoning>\nRating: <one whole number from 1 to 3>$/);
    expect(last(rubric!)).toContain('1: ignores the student\n2: (no description)\n3: builds on it');
    expect(last(base!)).toContain('What do you notice about 2, 4, 8?');
    const again = await ask(trialOf('base', 1));
    expect([again.request.messages, again.request.params]).toEqual([base!.request.messages, base!.request.params]);
    expect(again.distinct).not.toEqual(base!.distinct);
  });

  it('stores the parsed ordinal, or the reason and the text when it cannot read one', async () => {
    const done = async (text: string, family = 'cot') => ((await step.next({ trial: trialOf(family), results: [answer(text)] })) as StepOutcome).judgments![0]!;
    const scored = await done('Reasoning: the teacher revoices the answer.\nRating: 3');
    expect(scored).toMatchObject({ value: 3, fields: { uptake: 3 }, scales: { uptake: { min: 1, max: 3 } }, promptVariant: 'cot', rater: { alias: 'a', spec: 'openai:m' }, details: { observation: 'o1', via: 'label' } });
    expect(scored.targetTrialId).toBe(scored.trialId);
    const off = await done('Rating: 5');
    expect(off).toMatchObject({ value: null, fields: {}, raw: 'Rating: 5', reason: 'rating 5 is outside the scale 1-3' });
    const prose = await done('The teacher probably deserves a 2 here, or maybe a 3.', 'base');
    expect(prose.value).toBeNull();
    expect(prose.raw).toBe('The teacher probably deserves a 2 here, or maybe a 3.');
    const failed = step.failed!({ trial: trialOf('base'), results: [] }, { message: 'HTTP 500', step: 0, model: 'a' });
    expect(failed.judgments![0]).toMatchObject({ value: null, reason: 'the rating call failed after every attempt: HTTP 500' });
  });
});
