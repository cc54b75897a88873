import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ItemSchema, type Item } from '../core/index.js';
import { sharedStrings } from './item-strings.js';

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
