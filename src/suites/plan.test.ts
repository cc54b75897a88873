import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from '../core/index.js';
import { deriveSeed } from '../engine/seed.js';
import { PlanItems, planTrialTable, planTrials, trialId } from './plan.js';
import { fourNouns as items, lemmaTest as test } from './testing/four-nouns.js';


describe('planTrials', () => {
  it('is deterministic for a seed, dedups identical items and gives each repeat its own seed', () => {
    const tests = new Map([[test.name, test]]);
    const models = [{ alias: 'a', provider: 'baseline' as const, model: 'gold', spec: 'baseline:gold' as const }];
    const a = planTrials({ runId: 'r', items: [...items, items[0]!], models, tests, repeats: 3, seed: 5, params: {} });
    const b = planTrials({ runId: 'r', items, models, tests, repeats: 3, seed: 5, params: {} });
    const c = planTrials({ runId: 'r', items, models, tests, repeats: 3, seed: 6, params: {} });
    expect(a).toEqual(b);
    expect(a).toHaveLength(12);
    expect(new Set(a.map(t => t.id)).size).toBe(12);
    expect(c.map(t => t.itemId)).not.toEqual(a.map(t => t.itemId));
    expect(new Set(a.filter(t => t.itemId === 'bean').map(t => t.seed)).size).toBe(3);
  });
  it('names the file and line of an item whose test is unknown', () => {
    const odd = { ...items[0]!, item: { ...items[0]!.item, test: 'nope' }, file: 's.jsonl', line: 4 };
    expect(() => planTrials({ runId: 'r', items: [odd], models: [], tests: new Map([[test.name, test]]), repeats: 1, seed: 1, params: {} }))
      .toThrow(/s\.jsonl:4, field "test": unknown test "nope"/);
  });
});

describe('planTrials applicability', () => {
  it('does not plan pairs a model cannot answer', () => {
    const models = [
      { alias: 'a', provider: 'baseline' as const, model: 'random', spec: 'baseline:random' as const },
      { alias: 'b', provider: 'openai' as const, model: 'm', spec: 'openai:m' as const },
    ];
    const trials = planTrials({
      runId: 'r', items, models, tests: new Map([[test.name, test]]), repeats: 1, seed: 1, params: {},
      applicable: (m, v) => m.alias === 'b' || v.item.id === 'cat',
    });
    expect(trials.map(t => `${t.modelAlias}:${t.itemId}`).sort()).toEqual(['a:cat', 'b:bean', 'b:cat', 'b:iarnród', 'b:teach']);
  });
});

describe('trialId', () => {
  it('adds the alias only for a model whose spec another model of the run shares', () => {
    const t = { itemHash: 'h', model: 'openai:llama', test: 'grammar_forms', promptVersion: '2', repeat: 0, seed: 7 };
    expect(trialId({ alias: 'x', ...t }, '{}')).toBe(contentHash({ alias: 'x', ...t, params: {} }));
    const models = [
      { alias: 'x', provider: 'openai' as const, model: 'llama', spec: 'openai:llama' as const },
      { alias: 'y', provider: 'openai' as const, model: 'llama', spec: 'openai:llama' as const },
      { alias: 'z', provider: 'openai' as const, model: 'other', spec: 'openai:other' as const },
    ];
    const plan = planTrials({ runId: 'r', items, models, tests: new Map([[test.name, test]]), repeats: 1, seed: 1, params: {} });
    expect(new Set(plan.map(p => p.id)).size).toBe(plan.length);
    for (const p of plan) {
      const fields = { itemHash: p.itemHash, model: p.modelSpec, test: p.test, promptVersion: p.promptVersion, repeat: p.repeat, seed: p.seed, params: {} };
      // z keeps the id a run with it alone has always had.
      expect(p.id).toBe(contentHash(p.modelAlias === 'z' ? fields : { alias: p.modelAlias, ...fields }));
    }
  });

  it('is the content hash of the trial fields and params, so stored runs keep their trial ids', () => {
    for (const params of [{}, { temperature: 0.5, maxTokens: 64 }, { maxTokens: 8, temperature: 0 }]) {
      const t = { itemHash: 'ab"c\\d', model: 'openai:gpt-4.1', test: 'grammar_forms', promptVersion: '2', repeat: 3, seed: 123456789 };
      expect(trialId(t, canonicalJson(params))).toBe(contentHash({ ...t, params }));
    }
  });
});

describe('planTrialTable', () => {
  const models = [
    { alias: 'a', provider: 'openai' as const, model: 'm1', spec: 'openai:m1' as const },
    { alias: 'b', provider: 'openai' as const, model: 'm2', spec: 'openai:m2' as const },
  ];
  it('makes each trial from its columns: id, seed and place as a trial of its own would have them', () => {
    const params = { temperature: 0.2 };
    const columns = new PlanItems();
    for (const v of items) columns.add(v);
    const table = planTrialTable({ runId: 'r', items: columns, models, tests: new Map([[test.name, test]]), repeats: 2, seed: 9, params });
    expect(table.size).toBe(16);
    for (let k = 0; k < table.size; k++) {
      const t = table.at(k);
      expect(t.index).toBe(k);
      expect(table.idAt(k)).toBe(t.id);
      expect(table.positionOf(t.id)).toBe(k);
      expect(t.seed).toBe(deriveSeed(9, t.itemHash, t.repeat));
      expect(t.id).toBe(contentHash({ itemHash: t.itemHash, model: t.modelSpec, test: test.name, promptVersion: test.promptVersion, repeat: t.repeat, seed: t.seed, params }));
      expect(t).toMatchObject({ runId: 'r', test: test.name, promptVersion: test.promptVersion, kind: 'item', variant: 'default' });
      expect(t.itemId).toBe(items.find(v => v.hash === t.itemHash)!.item.id);
    }
    // Every model and repeat of an item follow one another.
    expect(Array.from({ length: 4 }, (_, k) => `${table.at(k).modelAlias}${table.at(k).repeat}`)).toEqual(['a0', 'a1', 'b0', 'b1']);
    expect(new Set(Array.from({ length: 4 }, (_, k) => table.at(k).itemHash)).size).toBe(1);
    expect(table.positionOf('nope')).toBeUndefined();
  });

  it('keeps none of the plan entries it was made from alive', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let entries: PlanItems | undefined = new PlanItems();
    for (const v of items) entries.add({ hash: v.hash, item: { id: v.item.id, test: v.item.test }, file: 'f.jsonl', line: 1 });
    const gone = new WeakRef(entries);
    const table = planTrialTable({ runId: 'r', items: entries, models, tests: new Map([[test.name, test]]), repeats: 1, seed: 1, params: {}, applicable: () => true });
    entries = undefined;
    await new Promise(resolve => setImmediate(resolve));
    gc();
    expect(gone.deref()).toBeUndefined();
    expect(table.at(0).itemId).toBeTruthy();
  });
});
