import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat-model.js';
import { NoSuchPluginError, ProviderCallError } from '../../core/errors.js';
import { callError } from '../testing/call-error.js';
import { createBaselineModel } from './index.js';

const ask = (hints: ChatRequest['hints'], seed?: number, content = 'Pick one'): ChatRequest => ({
  messages: [{ role: 'user', content }],
  params: seed === undefined ? {} : { seed },
  hints,
});

describe('baselines', () => {
  it('copy returns hints.copy and gold returns hints.gold, with zero usage and isBaseline', async () => {
    const copy = createBaselineModel('copy');
    const gold = createBaselineModel('gold');
    const hints = { copy: 'I has a cat.', gold: 'I have a cat.' };
    expect(await copy.generate(ask(hints))).toEqual({
      text: 'I has a cat.', usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'stop', responseModel: 'baseline:copy', warnings: [],
    });
    expect((await gold.generate(ask(hints))).text).toBe('I have a cat.');
    expect([copy.isBaseline, copy.provider, copy.modelId]).toEqual([true, 'baseline', 'copy']);
  });

  it('fails with a non-retryable error naming the missing hint', async () => {
    const error = await callError(createBaselineModel('gold').generate(ask({ copy: 'x' })));
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error).toMatchObject({ kind: 'empty', isRetryable: false });
    expect(error.message).toMatch(/hints\.gold/);
    await expect(createBaselineModel('copy').generate(ask(undefined))).rejects.toThrow(/hints\.copy/);
    await expect(createBaselineModel('random').generate(ask({ options: [] }))).rejects.toThrow(/hints\.options/);
  });

  it('rejects an unknown baseline name, listing the known ones', () => {
    expect(() => createBaselineModel('oracle')).toThrow(NoSuchPluginError);
    expect(() => createBaselineModel('oracle')).toThrow(/copy, gold, random, script/);
  });

  it('random picks one of the options, reproducibly, whatever the call order', async () => {
    const options = ['a', 'b', 'c', 'd'];
    const requests = Array.from({ length: 40 }, (_, i) => ask({ options }, i));
    const model = createBaselineModel('random', { seed: 1 });
    const forward = await Promise.all(requests.map(r => model.generate(r).then(x => x.text)));
    const fresh = createBaselineModel('random', { seed: 1 });
    const backward: string[] = [];
    for (const r of [...requests].reverse()) backward.unshift((await fresh.generate(r)).text);
    expect(backward).toEqual(forward);
    for (const text of forward) expect(options).toContain(text);
    // Forty picks among four options: a constant answer would mean the seed is ignored.
    expect(new Set(forward).size).toBeGreaterThan(1);
  });

  it('random depends on the baseline seed and on the item, not only the request seed', async () => {
    const options = Array.from({ length: 50 }, (_, i) => `o${i}`);
    const picks = async (seed: number, content: string) => {
      const model = createBaselineModel('random', { seed });
      const out: string[] = [];
      for (let s = 0; s < 20; s++) out.push((await model.generate(ask({ options }, s, content))).text);
      return out;
    };
    const base = await picks(1, 'item A');
    expect(await picks(1, 'item A')).toEqual(base);
    expect(await picks(2, 'item A')).not.toEqual(base);
    expect(await picks(1, 'item B')).not.toEqual(base);
  });

  it('random is roughly uniform', async () => {
    const model = createBaselineModel('random', { seed: 3 });
    const counts = { a: 0, b: 0 };
    for (let s = 0; s < 2000; s++) counts[(await model.generate(ask({ options: ['a', 'b'] }, s))).text as 'a' | 'b']++;
    // Binomial(2000, 0.5): sd ~ 22, so 900..1100 is a ~4.5 sd band.
    expect(counts.a).toBeGreaterThan(900);
    expect(counts.a).toBeLessThan(1100);
  });
});

describe('baseline capabilities', () => {
  it('declares the hint each baseline needs, so the planner can skip what it cannot answer', () => {
    const make = createBaselineModel;
    expect(make('copy').needsHints).toEqual(['copy']);
    expect(make('gold').needsHints).toEqual(['gold']);
    expect(make('random').needsHints).toEqual(['options']);
  });
});
