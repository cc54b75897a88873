import { describe, expect, it } from 'vitest';
import { parseModelSpec } from '../../core/model-spec.js';
import { openStore } from '../../store/index.js';
import { weightedMean } from './loop.js';
import { synthesize } from './synthesize.js';
import { draftJson, questionsJson, roleModel } from './testing.js';

const judged = `<json>${JSON.stringify({ adapts_to_the_learner: 2, uses_the_learner_s_context: 3, checks_understanding: 4, scaffolds_in_small_steps: 3, invites_own_ideas: 2, respectful_and_honest: 5, reason: 'ok' })}</json>`;
const models = () => ({
  generator: roleModel((_r, role) => (role === 'synthesis:metrics' ? draftJson() : questionsJson(4, k => `Persona ${k}`)), 'generator'),
  answerer: roleModel(r => `Answer: ${r.messages.at(-1)!.content}`, 'answerer'),
  judge: roleModel(() => judged, 'judge'),
});
const specs = { generator: parseModelSpec('gen=openai:g'), answerer: parseModelSpec('teacher=openai:a'), judge: parseModelSpec('judge=openai:j') };

describe('synthesis through the engine', () => {
  it('every call is stored; a killed synthesis resumes with the same options and asks only what is missing', async () => {
    const store = await openStore('sqlite::memory:');
    const full = models();
    const whole = await synthesize({ description: 'Fractions.', models: full, specs, store, rounds: 1, questions: 4, anchors: 2 });
    const total = full.generator.calls.length + full.answerer.calls.length + full.judge.calls.length;
    expect((await store.listCalls(whole.runId)).length).toBe(total);

    const other = await openStore('sqlite::memory:');
    const stop = new AbortController();
    const first = models();
    const killing = { ...first, answerer: roleModel(r => { if (first.answerer.calls.length >= 3) stop.abort(); first.answerer.calls.push(r); return `Answer: ${r.messages.at(-1)!.content}`; }, 'answerer') };
    await expect(synthesize({ description: 'Fractions.', models: killing, specs, store: other, rounds: 1, questions: 4, anchors: 2, signal: stop.signal })).rejects.toThrow(/interrupted \(run the same command again to continue\)/);
    const stored = (await other.listCalls(whole.runId)).length;
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(total);
    const second = models();
    const resumed = await synthesize({ description: 'Fractions.', models: second, specs, store: other, rounds: 1, questions: 4, anchors: 2 });
    expect(second.generator.calls.length + second.answerer.calls.length + second.judge.calls.length).toBe(total - stored);
    expect(resumed.yaml).toBe(whole.yaml);
    await store.close();
    await other.close();
  });

  it('SceneGen\'s weighted mean: sum of w_i (v - 1) / 4 per scored case, averaged; unscored cases left out', () => {
    const metrics = [{ field: 'a', weight: 3 }, { field: 'b', weight: 1 }];
    expect(weightedMean({ scores: [{ a: 5, b: 1 }, { a: 3, b: 3 }, { a: null, b: 2 }] }, metrics)).toBeCloseTo(((0.75 * 1 + 0.25 * 0) + (0.75 * 0.5 + 0.25 * 0.5)) / 2, 12);
    expect(weightedMean({ scores: [] }, metrics)).toBe(-Infinity);
  });
});
