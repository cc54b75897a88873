import { describe, expect, it } from 'vitest';
import { createRng, sampleStratified, selectItems, shuffle, type Candidate } from './sampling.js';

describe('createRng', () => {
  it('repeats for the same seed and salt and differs for another salt', () => {
    const a = createRng(7, 'x');
    const b = createRng(7, 'x');
    const c = createRng(7, 'y');
    const sa = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(sa);
    for (const v of sa) expect(v >= 0 && v < 1).toBe(true);
  });

  it('shuffles every element exactly once', () => {
    const xs = Array.from({ length: 50 }, (_, i) => i);
    const s = shuffle(xs, createRng(1));
    expect(s).not.toEqual(xs);
    expect(s.slice().sort((a, b) => a - b)).toEqual(xs);
  });
});

describe('sampleStratified', () => {
  const cands = [
    ...Array.from({ length: 30 }, (_, i) => ({ s: 'a', id: `a${i}`, g: `g${i % 10}` })),
    ...Array.from({ length: 3 }, (_, i) => ({ s: 'b', id: `b${i}`, g: `h${i}` })),
    ...Array.from({ length: 30 }, (_, i) => ({ s: 'c', id: `c${i}`, g: `k${i}` })),
  ];

  it('fills strata evenly and hands a short stratum\'s share to the others', () => {
    const r = sampleStratified(cands, { target: 21, rng: createRng(3), stratum: c => c.s });
    const counts = r.strata.map(s => [s.stratum, s.picked]);
    expect(counts).toEqual([['a', 9], ['b', 3], ['c', 9]]);
  });

  it('honours weights and group exclusion', () => {
    const r = sampleStratified(cands, { target: 40, rng: createRng(3), stratum: c => c.s, weights: { a: 2, b: 0, c: 2 }, group: c => c.g });
    const a = r.picked.filter(c => c.s === 'a');
    expect(a.length).toBe(10); // only 10 distinct groups in a
    expect(new Set(a.map(c => c.g)).size).toBe(10);
    // a ran out of groups, so the unused share went to b (weight 0, but the only other source) and c.
    expect(r.picked.length).toBe(40);
    expect(r.picked.filter(c => c.s === 'b').length).toBe(3);
  });
});

describe('selectItems', () => {
  const mk = (id: string, topic: string, publicOk = true): Candidate => ({
    item: { id, test: 't', language: 'ga', input: {}, accepted: ['x'], source: 'k', licence: 'ODbL-1.0', evidence: 'e', visibility: 'private', contamination: 'public-source', human_checked: false, topic },
    publicOk,
  });
  const cands = [...Array.from({ length: 40 }, (_, i) => mk(`x${String(i).padStart(2, '0')}`, 'x', i % 2 === 0)), ...Array.from({ length: 40 }, (_, i) => mk(`y${i}`, 'y'))];

  it('marks exactly 20 public, only from publishable candidates, sorted by id, and is repeatable', () => {
    const a = selectItems(cands, { suite: 's', test: 't', seed: 1, target: 50 });
    const b = selectItems(cands, { suite: 's', test: 't', seed: 1, target: 50 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.items.length).toBe(50);
    const pub = a.items.filter(i => i.visibility === 'public');
    expect(pub.length).toBe(20);
    for (const p of pub) if (p.topic === 'x') expect(Number(p.id.slice(1)) % 2).toBe(0);
    expect(a.items.map(i => i.id)).toEqual(a.items.map(i => i.id).slice().sort());
    expect(a.shortfalls).toEqual([]);
  });

  it('reports a shortfall with the exclusion reasons when candidates run out', () => {
    const r = selectItems(cands.slice(0, 5), { suite: 's', test: 't', seed: 1, target: 50, exclusions: new Map([['forms equal to the lemma', 7]]) });
    expect(r.items.length).toBe(5);
    expect(r.shortfalls[0]).toMatchObject({ wanted: 50, got: 5 });
    expect(r.shortfalls[0]!.reason).toContain('7 forms equal to the lemma');
  });
});
