import { describe, expect, it } from 'vitest';
import { bootstrapCI } from '../../stats/index.js';
import { analyseInjections, type InjectionPair } from './analysis.js';

// Three decks with a knowledge error: D1 drops 1, 2 and 0.5 points; D2 is untouched on two and
// lower by 0.3 on the third; the posttest drops 0.2 on every deck; D3 is scored on one deck only.
const knowledge: InjectionPair[] = [
  { family: 'knowledge', original: { d1: 4, d2: 4, post: 0.8, d3: 0.9 }, injected: { d1: 3, d2: 4, post: 0.6, d3: 0.9 } },
  { family: 'knowledge', original: { d1: 5, d2: 3, post: 0.6 }, injected: { d1: 3, d2: 3, post: 0.4 } },
  { family: 'knowledge', original: { d1: 4.5, d2: 4, post: 0.5 }, injected: { d1: 4, d2: 3.7, post: 0.3 } },
];
// Two decks with leaked answers: the posttest rises, D1 barely moves.
const integrity: InjectionPair[] = [
  { family: 'integrity', original: { d1: 4, post: 0.5 }, injected: { d1: 4, post: 0.9 } },
  { family: 'integrity', original: { d1: 4, post: 0.4 }, injected: { d1: 3.9, post: 1 } },
];

describe('analyseInjections', () => {
  const [k, i] = analyseInjections([...knowledge, ...integrity], { seed: 4 });

  it('gives the hand-computed mean drops, marks the targeted dimension, and leaves out absent families', () => {
    expect([k!.family, i!.family]).toEqual(['knowledge', 'integrity']);
    const d1 = k!.dimensions.find(d => d.dimension === 'd1')!;
    expect(d1).toMatchObject({ targeted: true, n: 3 });
    expect(d1.meanDrop).toBeCloseTo(3.5 / 3, 12);
    // drops 1, 2, 0.5: sd = sqrt(((-1/6)^2 + (5/6)^2 + (-2/3)^2) / 2) = sqrt(7/12); t = (7/6) / (sd / sqrt 3).
    expect(d1.t).toBeCloseTo((7 / 6) / Math.sqrt(7 / 12 / 3), 10);
    expect(d1.df).toBe(2);
    expect(d1.dz).toBeCloseTo((7 / 6) / Math.sqrt(7 / 12), 10);
    const ci = bootstrapCI([1, 2, 0.5], 'mean', { seed: 4, resamples: 2000 });
    expect([d1.low, d1.high]).toEqual([ci.low, ci.high]);
    const post = k!.dimensions.find(d => d.dimension === 'post')!;
    expect(post.targeted).toBe(false);
    expect(post.meanDrop).toBeCloseTo(0.2, 12);
    expect(k!.dimensions.find(d => d.dimension === 'd3')).toMatchObject({ n: 1, meanDrop: 0, low: NaN, t: NaN });
    expect(k!.dimensions.find(d => d.dimension === 'gain')).toMatchObject({ n: 0, meanDrop: NaN });
    expect(analyseInjections(knowledge, { seed: 4 }).map(f => f.family)).toEqual(['knowledge']);
  });

  it('shows a leak raising the posttest (a negative drop) while its targeted judge dimension barely moves', () => {
    const post = i!.dimensions.find(d => d.dimension === 'post')!;
    expect(post.meanDrop).toBeCloseTo(-0.5, 12);
    expect(post.high).toBeLessThan(0);
    const d1 = i!.dimensions.find(d => d.dimension === 'd1')!;
    expect(d1).toMatchObject({ targeted: true, n: 2 });
    expect(d1.meanDrop).toBeCloseTo(0.05, 12);
    expect(i!.targetedMeanDz).toBe(d1.dz);
    expect(i!.nonTargetedMeanDz).toBe(post.dz);
    expect(i!.nonTargetedMeanDz).toBeLessThan(0);
  });
});
