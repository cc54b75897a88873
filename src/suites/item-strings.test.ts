import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ItemSchema, contentHash, type Item } from '../core/index.js';
import { itemHash, sharedStrings } from './item-strings.js';

const samples: Item[] = ['data/samples/irish', 'data/samples/english'].flatMap(dir =>
  readdirSync(dir).filter(f => f.endsWith('.jsonl')).flatMap(f =>
    readFileSync(join(dir, f), 'utf8').split('\n').filter(l => l.trim()).map(l => ItemSchema.parse(JSON.parse(l)))));

describe('sharedStrings', () => {
  it('leaves every item as it was (same keys, order and values) while sharing repeated strings', () => {
    expect(samples.length).toBeGreaterThan(50);
    const same = sharedStrings();
    for (const item of samples) {
      const before = JSON.stringify(item);
      expect(JSON.stringify(same(structuredClone(item)))).toBe(before);
    }
  });
});

describe('itemHash', () => {
  it('is contentHash, for every sample item and odd inputs', () => {
    const odd = [
      { b: { z: 1, a: [{ y: 2, x: null }] }, a: '\u00e9', '10': 1, '9': 2, B: 3, _: 4, 'a b': { '': [] } },
      { x: [[1, 2], { d: -0, c: 1.5e-7, e: 'line\nbreak "q"' }] },
    ].map(input => ({ ...samples[0]!, input }) as Item);
    for (const item of [...samples, ...odd]) expect(itemHash(item)).toBe(contentHash(item));
  });
});
