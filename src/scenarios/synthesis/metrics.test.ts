import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { createScriptModel } from '../../providers/script/index.js';
import { CallCounter, SynthesisError } from './ask.js';
import { checkMetrics, draftMetrics, fieldOf, parseDimensions } from './metrics.js';
import { draftJson } from './testing.js';
import { DEFAULT_DIMENSIONS } from './types.js';

const draft = () => JSON.parse(draftJson().slice(6, -7)) as { metrics: Array<Record<string, unknown>> };

describe('metric drafting', () => {
  it('scales weights so each dimension sums to its seed weight, and names become distinct fields', () => {
    const r = checkMetrics(draft(), DEFAULT_DIMENSIONS);
    if (!r.ok) throw new Error(r.problems.join('; '));
    expect(r.value.map(m => [m.field, m.dimension, Number(m.weight.toFixed(6))])).toEqual([
      ['adapts_to_the_learner', 'Personalisation', 0.075],
      ['uses_the_learner_s_context', 'Personalisation', 0.225],
      ['checks_understanding', 'Teaching method professionalism', 0.2],
      ['scaffolds_in_small_steps', 'Teaching method professionalism', 0.2],
      ['invites_own_ideas', 'Creativity stimulation', 0.2],
      ['respectful_and_honest', 'Values integration', 0.1],
    ]);
    expect(r.value.reduce((s, m) => s + m.weight, 0)).toBeCloseTo(1, 12);
    expect(fieldOf('3 Élan vital!')).toBe('m_3_elan_vital');
  });

  it('names every problem of a bad draft', () => {
    const d = draft();
    d.metrics[0]!.dimension = 'Fun';
    d.metrics[1]!.weight = -1;
    d.metrics[2]!.positive = '';
    d.metrics[3]!.name = 'Checks  understanding';
    d.metrics[4]!.name = 'Reason';
    expect(checkMetrics(d, DEFAULT_DIMENSIONS)).toEqual({ ok: false, problems: [
      'metrics[0].dimension must be one of: Personalisation, Teaching method professionalism, Creativity stimulation, Values integration',
      'metrics[1].weight must be a positive number',
      'metrics[2].positive must be non-empty text',
      'metrics[3].name "Checks  understanding" is taken; give each metric a distinct name',
      'metrics[4].name "Reason" is taken; give each metric a distinct name',
    ] });
    expect(checkMetrics({ metrics: draft().metrics.slice(0, 5) }, DEFAULT_DIMENSIONS)).toEqual({ ok: false, problems: ['expected 6 to 10 metrics, got 5'] });
    const noValues = draft();
    noValues.metrics[5]!.dimension = 'Personalisation';
    expect(checkMetrics(noValues, DEFAULT_DIMENSIONS)).toEqual({ ok: false, problems: ['no metric for the dimension "Values integration"'] });
    expect(checkMetrics([1], DEFAULT_DIMENSIONS)).toEqual({ ok: false, problems: ['expected {"metrics": [...]}'] });
  });

  it('retries an invalid answer with its problems, then accepts a valid one', async () => {
    const generator = createScriptModel({ turns: { byRole: { 'synthesis:metrics': ['Here are some metrics!', '<json>{"metrics": []}</json>', draftJson()] } } });
    const calls = new CallCounter();
    const seen: string[] = [];
    const spy = { ...generator, generate: async (r: Parameters<typeof generator.generate>[0]) => { seen.push(r.messages.at(-1)!.content); return generator.generate(r); } };
    const metrics = await draftMetrics({ generator: spy, description: 'Tutor fractions.', dimensions: DEFAULT_DIMENSIONS, attempts: 3, calls });
    expect(metrics).toHaveLength(6);
    expect(seen[1]).toMatch(/^That answer was not valid: no JSON object found/);
    expect(seen[2]).toBe('That answer was not valid: expected 6 to 10 metrics, got 0. Answer again with one corrected JSON object between <json> and </json>.');
  });

  it('fails with a message naming the step, the attempts, the problems and the answer', async () => {
    const generator = createScriptModel({ turns: { byRole: { 'synthesis:metrics': ['<json>{"metrics": 3}</json>'] }, onEnd: 'repeat-last' } });
    const error = await draftMetrics({ generator, description: 'x', dimensions: DEFAULT_DIMENSIONS, attempts: 2, calls: new CallCounter() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SynthesisError);
    expect((error as Error).message).toBe('synthesis: the generator\'s metric draft was not valid after 2 attempt(s): expected {"metrics": [...]}. Last answer began: "<json>{\\"metrics\\": 3}</json>". Try a stronger model or more attempts.');
  });

  it('parses --dimensions', () => {
    expect(parseDimensions('Personalisation=0.5, Method = 0.5')).toEqual([{ name: 'Personalisation', weight: 0.5 }, { name: 'Method', weight: 0.5 }]);
    expect(() => parseDimensions('Personalisation')).toThrow(ConfigError);
    expect(() => parseDimensions('A=0')).toThrow(/"A=0" is not Name=weight with a positive weight/);
  });
});
