import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ItemSchema, contentHash } from '../core/index.js';
import { fastItem, itemHash } from './load-check.js';

const samples = ['data/samples/irish', 'data/samples/english'].flatMap(dir =>
  readdirSync(dir).filter(f => f.endsWith('.jsonl')).flatMap(f =>
    readFileSync(join(dir, f), 'utf8').split('\n').filter(l => l.trim()).map(l => JSON.parse(l) as Record<string, unknown>)));

/** Order-sensitive JSON, so a reordered key is a difference. */
const text = (v: unknown) => JSON.stringify(v);

/** What the fast path gives must be exactly zod's output; when it gives nothing, zod decides. */
function agrees(value: unknown): 'fast' | 'zod' {
  const fast = fastItem(value);
  const parsed = ItemSchema.safeParse(value);
  if (fast === undefined) return 'zod';
  expect(parsed.success).toBe(true);
  expect(text(fast)).toBe(text(parsed.data));
  expect(Object.keys(fast)).toEqual(Object.keys(parsed.data!));
  return 'fast';
}

const WEIRD: unknown[] = [undefined, null, 0, 1e999, -0, '', ' ', ' x', 'x ', 'Bad-Name', 'ok', true, [], [''], [' '], ['a'], [1], {}, { key: '' }, { key: 'k' }, { key: 'k', dataset: '' }, { zz: 1, key: 'k', dataset: 'd' }, { a: { b: [1, null, 'x'] } }, { a: 1e999 }, JSON.parse('{"__proto__": 1}')];

describe('fastItem', () => {
  it('takes every sample item, giving exactly what zod gives', () => {
    expect(samples.length).toBeGreaterThan(50);
    for (const item of samples) expect(agrees(item)).toBe('fast');
  });

  it('keeps the schema order and puts unknown keys after, as zod does', () => {
    const line = JSON.parse('{"zz":1,"human_checked":false,"contamination":"private","visibility":"private","evidence":"e","licence":"l","source":{"key":"k","x":2,"dataset":"d"},"accepted":["a"],"input":{"b":1,"a":2},"language":"ga","test":"t","id":"i","aa":2}');
    expect(agrees(line)).toBe('fast');
    expect(Object.keys(fastItem(line)!)).toEqual(['id', 'test', 'language', 'input', 'accepted', 'source', 'licence', 'evidence', 'visibility', 'contamination', 'human_checked', 'zz', 'aa']);
  });

  it('never vouches for a line zod refuses: every field set to odd values, or removed', () => {
    const base = samples[0]!;
    let refused = 0;
    for (const key of [...Object.keys(base), 'references', 'topic', 'level', 'l1', 'notes', 'accepted']) {
      const { [key]: _removed, ...without } = base;
      agrees(without);
      for (const odd of WEIRD) {
        const value = { ...base, [key]: odd };
        if (agrees(value) === 'zod' && !ItemSchema.safeParse(value).success) refused++;
      }
    }
    for (const odd of WEIRD) agrees({ ...base, input: { ...(base.input as object), deep: odd } });
    expect(refused).toBeGreaterThan(100);
    for (const odd of WEIRD) agrees(odd);
  });
});

describe('itemHash', () => {
  it('is contentHash, for every sample item and odd inputs', () => {
    const odd = [
      { b: { z: 1, a: [{ y: 2, x: null }] }, a: '\u00e9', '10': 1, '9': 2, B: 3, _: 4, 'a b': { '': [] } },
      { x: [[1, 2], { d: -0, c: 1.5e-7, e: 'line\nbreak "q"' }] },
    ].map(input => ({ ...samples[0]!, input }));
    for (const value of [...samples, ...odd]) {
      const item = fastItem(value)!;
      expect(itemHash(item)).toBe(contentHash(item));
    }
  });
});
