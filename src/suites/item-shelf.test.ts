import { describe, expect, it } from 'vitest';
import type { Store, Trial, VersionedItem } from '../core/index.js';
import { openStore } from '../store/index.js';
import { itemShelf } from './item-shelf.js';

const item = (n: number): VersionedItem => ({
  hash: `h${n}`,
  item: {
    id: `i${n}`, test: 'grammar_forms', language: 'ga', input: { lemma: `focal${n}` }, accepted: [`focail${n}`],
    source: 'x', licence: 'CC0-1.0', evidence: 'synthetic', visibility: 'public', contamination: 'public-source', human_checked: false,
  },
});
const trial = (n: number, repeat = 0): Trial => ({
  id: `t${n}-${repeat}`, runId: 'r', index: n * 2 + repeat, itemId: `i${n}`, itemHash: `h${n}`, test: 'grammar_forms',
  modelAlias: 'm', modelSpec: 'baseline:gold', promptVersion: '1', repeat, seed: 1,
});

describe('itemShelf', () => {
  it('holds the items of loaded chunks only, and an item two chunks share until both let it go', async () => {
    const store = await openStore('sqlite::memory:');
    await store.openRun({
      id: 'r', kind: 'suite', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', status: 'running',
      config: { suites: ['s.jsonl'], itemHashes: ['h1', 'h2', 'h3'], models: [], repeats: 2, seed: 1, params: {} },
      prices: { source: 'built-in', date: '2026-01-01', models: {} }, paideiaVersion: '0.0.0',
    });
    await store.saveItems([1, 2, 3].map(item));
    await store.saveTrials([1, 2, 3].flatMap(n => [trial(n, 0), trial(n, 1)]));
    const asked: string[][] = [];
    const counting: Store = { ...store, listRunItemsOf: (runId, hashes) => { asked.push([...hashes]); return store.listRunItemsOf(runId, hashes); } };
    const shelf = itemShelf(counting, 'r');
    // Two chunks split item 2's repeats between them.
    const first = [trial(1, 0), trial(1, 1), trial(2, 0)];
    const second = [trial(2, 1), trial(3, 0), trial(3, 1)];
    expect(shelf.get('h1')).toBeUndefined();
    await shelf.load(first);
    await shelf.load(second);
    expect(asked).toEqual([['h1', 'h2'], ['h2', 'h3']]);
    expect(shelf.get('h2')).toEqual(item(2).item);
    shelf.release(first);
    expect([shelf.get('h1'), shelf.get('h2')?.id, shelf.get('h3')?.id]).toEqual([undefined, 'i2', 'i3']);
    shelf.release(second);
    expect([shelf.get('h2'), shelf.get('h3')]).toEqual([undefined, undefined]);
    await store.close();
  });
});
