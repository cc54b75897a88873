import { describe, expect, it } from 'vitest';
import { ablationId, groupByAblation, type AblationSetting } from './groups.js';
import { sampleFrames } from './frames.js';

describe('sampleFrames', () => {
  it('draws k frames in deck order, always the first, the same for a seed', () => {
    const frames = sampleFrames(12, 4, 7);
    expect(frames).toHaveLength(4);
    expect(frames[0]).toBe(0);
    expect(new Set(frames).size).toBe(4);
    expect([...frames].sort((a, b) => a - b)).toEqual(frames);
    expect(frames.every(i => i >= 0 && i < 12)).toBe(true);
    expect(sampleFrames(12, 4, 7)).toEqual(frames);
    const seen = new Set(Array.from({ length: 20 }, (_, seed) => sampleFrames(12, 4, seed).join(',')));
    expect(seen.size).toBeGreaterThan(5);
  });

  it('gives every slide when k reaches the deck, the title alone for k = 1, and refuses nonsense', () => {
    expect(sampleFrames(3, 5, 1)).toEqual([0, 1, 2]);
    expect(sampleFrames(9, 1, 1)).toEqual([0]);
    expect(() => sampleFrames(5, 0, 1)).toThrow(/k must be a whole number/);
    expect(() => sampleFrames(0, 2, 1)).toThrow(/at least one slide/);
  });
});

describe('groupByAblation', () => {
  const row = (learner: string, puzzleContext: boolean, frames: 'all' | number, gain: number) => ({ setting: { learner, puzzleContext, frames } as AblationSetting, gain });
  const rows = [row('small', true, 'all', 0.1), row('large', true, 4, 0.3), row('small', true, 4, 0.2), row('large', true, 'all', 0.4)];

  it('groups by each option that varies, in a fixed order, leaving out options with one value', () => {
    const groups = groupByAblation(rows, r => r.setting);
    expect(groups.map(g => g.option)).toEqual(['learner', 'frames']);
    expect(groups[0]!.values.map(v => [v.value, v.rows.map(r => r.gain)])).toEqual([['large', [0.3, 0.4]], ['small', [0.1, 0.2]]]);
    expect(groups[1]!.values.map(v => [v.value, v.rows.map(r => r.gain)])).toEqual([['4 frames', [0.3, 0.2]], ['all slides', [0.1, 0.4]]]);
    const context = groupByAblation([...rows, row('small', false, 'all', 0)], r => r.setting).find(g => g.option === 'puzzleContext')!;
    expect(context.values.map(v => [v.value, v.rows.length])).toEqual([['without context', 1], ['with context', 4]]);
  });

  it('names a setting with a stable id', () => {
    expect(ablationId({ learner: 'small', puzzleContext: false, frames: 4 })).toBe('learner=small;context=off;frames=4');
  });
});
