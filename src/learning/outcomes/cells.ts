import type { ItemSet } from '../units/index.js';
import type { Mark } from './mark.js';

/** The four tests of the protocol: pretest and posttest on the source items, then transfer. */
export const PHASES = ['pre', 'post', 'near', 'far'] as const;
export type Phase = (typeof PHASES)[number];

/** Which of the unit's item sets each phase asks. */
export const PHASE_ITEMS: Readonly<Record<Phase, ItemSet>> = { pre: 'source_items', post: 'source_items', near: 'near_transfer', far: 'far_transfer' };

/** One marked item of one learner who studied one deck of one unit. */
export interface MarkedAnswer {
  unit: string;
  /** The deck studied: a generator's alias, or a variant's id (an injected error, an ablation). */
  deck: string;
  learner: string;
  phase: Phase;
  /** Index of the item in the phase's item set. */
  item: number;
  mark: Mark;
}

/** Counts of one phase: `answered` = right + wrong; failed calls are counted apart. */
export interface PhaseCount {
  right: number;
  answered: number;
  failed: number;
}

/** Everything one learner did with one deck of one unit. */
export interface Cell {
  unit: string;
  deck: string;
  learner: string;
  phases: Record<Phase, PhaseCount>;
}

/** right / answered; NaN (undefined) when no item of the phase was answered. */
export function accuracy(count: PhaseCount): number {
  return count.answered === 0 ? NaN : count.right / count.answered;
}

const empty = (): PhaseCount => ({ right: 0, answered: 0, failed: 0 });

/** Marks gathered per learner x deck x unit, in sorted order (unit, deck, learner). */
export function cellsOf(marks: Iterable<MarkedAnswer>): Cell[] {
  const cells = new Map<string, Cell>();
  for (const m of marks) {
    const key = JSON.stringify([m.unit, m.deck, m.learner]);
    let cell = cells.get(key);
    if (!cell) {
      cell = { unit: m.unit, deck: m.deck, learner: m.learner, phases: { pre: empty(), post: empty(), near: empty(), far: empty() } };
      cells.set(key, cell);
    }
    const count = cell.phases[m.phase];
    if (m.mark.status === 'failed') count.failed++;
    else {
      count.answered++;
      if (m.mark.status === 'right') count.right++;
    }
  }
  return [...cells.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/** Gain = post - pre of one cell; NaN when either phase has no answered item. */
export function gainOf(cell: Cell): number {
  return accuracy(cell.phases.post) - accuracy(cell.phases.pre);
}

/**
 * Normalised gain (post - pre) / (1 - pre) (Hake 1998) of one cell; undefined (NaN) when the
 * pretest was already perfect (nothing left to gain) or a phase has no answered item.
 */
export function normalisedGainOf(cell: Cell): number {
  const pre = accuracy(cell.phases.pre);
  return pre === 1 ? NaN : (accuracy(cell.phases.post) - pre) / (1 - pre);
}
