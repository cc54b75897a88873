import { describe, expect, it } from 'vitest';
import { bootstrapCI } from '../../stats/index.js';
import type { Unit } from '../units/index.js';
import { accuracy, cellsOf, type MarkedAnswer, type Phase } from './cells.js';
import type { Mark } from './mark.js';
import { summariseOutcomes } from './summary.js';
import { overUnits } from './unit-bootstrap.js';

const right: Mark = { status: 'right', acceptedIndex: 0, normalizedAnswer: 'x' };
const wrong: Mark = { status: 'wrong', reason: 'no accepted answer matched' };
const failed: Mark = { status: 'failed', reason: 'HTTP 500' };

/** `rights` right then `wrongs` wrong items of one phase of one cell. */
function phase(unit: string, learner: string, p: Phase, rights: number, wrongs: number, deck = 'A'): MarkedAnswer[] {
  return [...Array(rights).fill(right), ...Array(wrongs).fill(wrong)].map((mark, item) => ({ unit, deck, learner, phase: p, item, mark }));
}

// u1 (basic translation): L1 pre 1/4 post 3/4, L2 pre 2/4 post 2/4 (+1 failed post call);
// u2 (advanced morphophonology): L1 pre 0/2 post 1/2, L2 pre 2/2 post 1/2 (a negative gain).
// Near/far: u1 near 1/2 far 0/2 for both learners; u2 near 2/2 far 1/2 for both.
const marks: MarkedAnswer[] = [
  ...phase('u1', 'L1', 'pre', 1, 3), ...phase('u1', 'L1', 'post', 3, 1), ...phase('u1', 'L2', 'pre', 2, 2), ...phase('u1', 'L2', 'post', 2, 2),
  { unit: 'u1', deck: 'A', learner: 'L2', phase: 'post', item: 4, mark: failed },
  ...phase('u2', 'L1', 'pre', 0, 2), ...phase('u2', 'L1', 'post', 1, 1), ...phase('u2', 'L2', 'pre', 2, 0), ...phase('u2', 'L2', 'post', 1, 1),
  ...['L1', 'L2'].flatMap(l => [...phase('u1', l, 'near', 1, 1), ...phase('u1', l, 'far', 0, 2), ...phase('u2', l, 'near', 2, 0), ...phase('u2', l, 'far', 1, 1)]),
];
const rubric = { rule_complexity: 1, exception_density: 1, transfer_abstraction: 1, distractor_strength: 1 };
const units = new Map<string, Pick<Unit, 'difficulty' | 'task_type'>>([
  ['u1', { task_type: 'translation', difficulty: { band: 'basic', rubric } }],
  ['u2', { task_type: 'morphophonology', difficulty: { band: 'advanced', rubric } }],
]);
const near = (a: number, b: number) => expect(a).toBeCloseTo(b, 12);

describe('learning outcomes', () => {
  it('counts per learner x deck x unit, leaving failed calls out of accuracy', () => {
    const cells = cellsOf(marks);
    expect(cells.map(c => [c.unit, c.learner])).toEqual([['u1', 'L1'], ['u1', 'L2'], ['u2', 'L1'], ['u2', 'L2']]);
    expect(cells[1]!.phases.post).toEqual({ right: 2, answered: 4, failed: 1 });
    expect(accuracy(cells[1]!.phases.post)).toBe(0.5);
    expect(accuracy({ right: 0, answered: 0, failed: 3 })).toBeNaN();
  });

  it('gives the hand-computed macro (over units) and micro (over items) figures', () => {
    const [s] = summariseOutcomes(cellsOf(marks), { units, seed: 7, normalisedGain: true });
    expect(s!.group).toBe('A');
    // pre: u1 (1/4 + 2/4)/2 = 0.375, u2 (0 + 1)/2 = 0.5 -> 0.4375; items 5/12.
    near(s!.pre.macro.value, 0.4375);
    near(s!.pre.micro.value, 5 / 12);
    // gain: u1 (0.5 + 0)/2, u2 (0.5 - 0.5)/2 -> 0.125; items 7/12 - 5/12.
    near(s!.gain.macro.value, 0.125);
    near(s!.gain.micro.value, 2 / 12);
    // near 0.5 / 1, far 0 / 0.5: gap 0.5 either way.
    near(s!.nearFarGap.macro.value, 0.5);
    near(s!.nearFarGap.micro.value, 0.5);
    // normalised: u1 (2/3 + 0)/2, u2 only L1 (0.5; L2's pretest was perfect) -> 5/12; pooled (2/12)/(7/12).
    near(s!.normalisedGain!.macro.value, 5 / 12);
    near(s!.normalisedGain!.micro.value, 2 / 7);
    expect(s!.normalisedGain!.undefinedCells).toBe(1);
    expect(s!.negativeGains).toEqual([{ unit: 'u2', deck: 'A', learner: 'L2', pre: 1, post: 0.5, gain: -0.5 }]);
    expect(s!.failedAnswers).toBe(1);
    near(s!.gainByBand.basic!.value, 0.25);
    near(s!.gainByBand.advanced!.value, 0);
    expect(Object.keys(s!.gainByTaskType)).toEqual(['morphophonology', 'translation']);
    // One unit has no interval.
    expect(s!.gainByBand.basic!.low).toBeNaN();
  });

  it('draws its unit intervals as bootstrapCI does: seeded, 2,000 resamples by default, percentile', () => {
    const [s] = summariseOutcomes(cellsOf(marks), { units, seed: 11 });
    const ref = bootstrapCI([0.25, 0], 'mean', { seed: 11, resamples: 2000 });
    expect(s!.gain.macro).toMatchObject({ n: 2, resamples: 2000, seed: 11, level: 0.95 });
    expect(s!.gain.macro.low).toBe(ref.low);
    expect(s!.gain.macro.high).toBe(ref.high);
    const again = summariseOutcomes(cellsOf(marks), { units, seed: 11 })[0]!;
    expect(again.gain.micro).toEqual(s!.gain.micro);
    expect(s!.normalisedGain).toBeUndefined();
  });

  it('groups by deck unless told otherwise, and needs every unit described', () => {
    const two = [...marks, ...phase('u1', 'L1', 'pre', 0, 1, 'B'), ...phase('u1', 'L1', 'post', 1, 0, 'B')];
    expect(summariseOutcomes(cellsOf(two), { units, seed: 1 }).map(s => [s.group, s.units])).toEqual([['A', 2], ['B', 1]]);
    expect(summariseOutcomes(cellsOf(marks), { units, seed: 1, groupOf: c => c.learner }).map(s => s.group)).toEqual(['L1', 'L2']);
    expect(() => summariseOutcomes(cellsOf(marks), { units: new Map(), seed: 1 })).toThrow(/unit "u1" has marks but is not among the units/);
  });

  it('leaves out resamples where a figure is undefined, and has no interval below two units', () => {
    // Values defined only for unit 0: draws of unit 1 alone are undefined.
    const e = overUnits(2, idx => (Array.from(idx).includes(0) ? 1 : NaN), { seed: 3, resamples: 400 });
    expect(e.value).toBe(1);
    expect(e.resamples).toBeGreaterThan(250);
    expect(e.resamples).toBeLessThan(400);
    expect(overUnits(1, () => 0.5, { seed: 3 })).toMatchObject({ value: 0.5, n: 1, low: NaN, high: NaN, resamples: 0 });
  });
});
