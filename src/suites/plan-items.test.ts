import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, type ChatModel, type Store, type VersionedItem } from '../core/index.js';
import { createBaselineModel } from '../providers/baseline/index.js';
import { openStore } from '../store/index.js';
import { planItemFiles, storedPlanItems, unanswerableBy } from './plan-items.js';
import type { PlanItems } from './plan.js';
import { BUILT_IN_TESTS } from './tests/index.js';

const sample = readFileSync('data/samples/irish/grammar_forms.jsonl', 'utf8').trim().split('\n');
const first = JSON.parse(sample[0]!) as Record<string, unknown>;
/** n distinct real grammar items (the sample's first, renamed). */
const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ ...first, id: `${first.id as string}-${i}` }));
const write = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'paideia-plan-items-')), 'items.jsonl');
  writeFileSync(file, text);
  return file;
};
const counting = (store: Store, sizes: number[]): Store => ({ ...store, saveItems: items => { sizes.push(items.length); return store.saveItems(items); } });
const none = () => [];
/** Every item of a plan as PlannedItem records. */
const entries = (items: PlanItems) => Array.from({ length: items.length }, (_, i) => items.entry(i));

describe('planItemFiles', () => {
  it('stores the bodies a thousand at a time as it reads them, and keeps only hash, id, test and place', async () => {
    const store = await openStore('sqlite::memory:');
    const sizes: number[] = [];
    const file = write(lines(2500).join('\n'));
    const { items, present } = await planItemFiles({ store: counting(store, sizes), paths: [file], keep: () => true, tests: BUILT_IN_TESTS, cannot: none });
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(items).toHaveLength(2500);
    expect(items.entry(1)).toEqual({ hash: items.hash(1), item: { id: `${first.id as string}-1`, test: 'grammar_forms' }, file, line: 2 });
    expect(items.hash(1)).toMatch(/^[0-9a-f]{16}$/);
    expect(items.cannot(1)).toBeUndefined();
    expect([...present]).toEqual(['grammar_forms']);
    await store.close();
  });

  it('lets the event loop turn while it reads a large file (a Ctrl-C or a web request need not wait for the plan)', async () => {
    const store = await openStore('sqlite::memory:');
    // Long enough to read that the loop is due a turn (20 ms) on any machine.
    const file = write(lines(20_000).join('\n'));
    let turned = false;
    // Queued before planning starts: it runs at the loop's next turn, which a read done without
    // one would leave until after the plan is returned.
    setImmediate(() => (turned = true));
    const { items } = await planItemFiles({ store, paths: [file], keep: () => true, tests: BUILT_IN_TESTS, cannot: none });
    expect(turned).toBe(true);
    expect(items).toHaveLength(20_000);
    await store.close();
  });

  it('reports a bad line, an item its test cannot use and an unknown test together, with file and line', async () => {
    const store = await openStore('sqlite::memory:');
    const odd = (id: string) => JSON.stringify({ ...first, id, test: 'grammar_form' });
    const file = write([...lines(2), '{"id": ', JSON.stringify({ ...first, id: 'no-lemma', input: { foo: 'bar' } }), odd('o1'), odd('o2')].join('\n'));
    const error = await planItemFiles({ store, paths: [file], keep: () => true, tests: BUILT_IN_TESTS, cannot: none }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    // The unknown test is named once, at its first item.
    expect((error as ConfigError).issues.map(i => [i.line, i.field])).toEqual([[3, undefined], [4, 'input.lemma'], [5, 'test']]);
    expect((error as ConfigError).issues[2]!.message).toMatch(/^unknown test "grammar_form"; known: .*grammar_forms/);
    await store.close();
  });

  it('throws a store write that failed once the file is read, and bad input before it', async () => {
    const store = await openStore('sqlite::memory:');
    const full: Store = { ...store, saveItems: async () => { throw new Error('database or disk is full'); } };
    const good = write(lines(3).join('\n'));
    await expect(planItemFiles({ store: full, paths: [good], keep: () => true, tests: BUILT_IN_TESTS, cannot: none })).rejects.toThrow('disk is full');
    const bad = write([...lines(1001), 'not json'].join('\n'));
    await expect(planItemFiles({ store: full, paths: [bad], keep: () => true, tests: BUILT_IN_TESTS, cannot: none })).rejects.toBeInstanceOf(ConfigError);
    await store.close();
  });
});

describe('unanswerableBy and storedPlanItems', () => {
  it('names the baselines that get no hint they need, and reads a stored run back as plan items', async () => {
    // A grammar item gives the gold answer and its lemma to copy as hints, but no options to pick from at random.
    const models = new Map<string, ChatModel>([['gold', createBaselineModel('gold')], ['random', createBaselineModel('random')], ['copy', createBaselineModel('copy')]]);
    const item = { hash: 'h', item: { ...first } } as unknown as VersionedItem;
    expect(unanswerableBy(models, BUILT_IN_TESTS)(item)).toEqual(['random']);
    expect(unanswerableBy(new Map([['gold', models.get('gold')!]]), BUILT_IN_TESTS)(item)).toEqual([]);

    const store = await openStore('sqlite::memory:');
    const file = write(lines(3).join('\n'));
    const { items } = await planItemFiles({ store, paths: [file], keep: () => true, tests: BUILT_IN_TESTS, cannot: none });
    await store.saveTrials(entries(items).map((e, index) => ({
      id: `t${index}`, runId: 'r', index, itemId: e.item.id, itemHash: e.hash, test: e.item.test, modelAlias: 'gold', modelSpec: 'baseline:gold', promptVersion: '1', repeat: 0, seed: 1,
    })));
    const back = await storedPlanItems(store, 'r', v => (v.item.id.endsWith('-1') ? ['random'] : []));
    expect(entries(back).map(e => [e.hash, e.item]).sort()).toEqual(entries(items).map(e => [e.hash, e.item]).sort());
    // The models that cannot answer an item stay with it.
    const one = entries(back).findIndex(e => e.item.id.endsWith('-1'));
    expect(Array.from({ length: back.length }, (_, i) => back.cannot(i))).toEqual(Array.from({ length: back.length }, (_, i) => (i === one ? ['random'] : undefined)));
    await store.close();
  });
});
