import { PaideiaError } from '../../core/errors.js';
import type { DifficultyBand, Unit } from '../units/index.js';
import { accuracy, gainOf, normalisedGainOf, type Cell, type Phase } from './cells.js';
import { overUnits, type Estimate, type UnitIntervalOptions } from './unit-bootstrap.js';

/** A figure averaged two ways: over units (each unit's cells' mean, then the mean over units) and over pooled items. */
export interface MacroMicro {
  /** Puzzle-level: the mean over units of the unit's value (itself the mean over its learners). */
  macro: Estimate;
  /** Item-level: from items pooled over every cell of the units drawn. */
  micro: Estimate;
}

/** A cell whose posttest fell below its pretest. */
export interface NegativeGain {
  unit: string;
  deck: string;
  learner: string;
  pre: number;
  post: number;
  gain: number;
}

export interface OutcomeSummary {
  group: string;
  units: number;
  pre: MacroMicro;
  post: MacroMicro;
  gain: MacroMicro;
  near: MacroMicro;
  far: MacroMicro;
  /** near - far. */
  nearFarGap: MacroMicro;
  /** With `normalisedGain: true`; cells with a perfect pretest have none and are counted. */
  normalisedGain?: MacroMicro & { undefinedCells: number };
  /** Macro gain over the group's units of each band / task type present. */
  gainByBand: Partial<Record<DifficultyBand, Estimate>>;
  gainByTaskType: Record<string, Estimate>;
  negativeGains: NegativeGain[];
  /** Failed calls, left out of every accuracy. */
  failedAnswers: number;
}

export interface SummariseOptions extends UnitIntervalOptions {
  /** The units (for band and task type); every cell's unit must be here. */
  units: ReadonlyMap<string, Pick<Unit, 'difficulty' | 'task_type'>>;
  /** The rows of the table; default the deck (a generator). */
  groupOf?: (cell: Cell) => string;
  normalisedGain?: boolean;
}

type Pool = Record<Phase, { right: number; answered: number }>;
/** Micro figures from items pooled over drawn units; NaN when undefined in that draw. */
const MICRO: Record<'pre' | 'post' | 'gain' | 'near' | 'far' | 'nearFarGap' | 'normalisedGain', (p: Pool) => number> = {
  pre: p => p.pre.right / p.pre.answered,
  post: p => p.post.right / p.post.answered,
  near: p => p.near.right / p.near.answered,
  far: p => p.far.right / p.far.answered,
  gain: p => p.post.right / p.post.answered - p.pre.right / p.pre.answered,
  nearFarGap: p => p.near.right / p.near.answered - p.far.right / p.far.answered,
  normalisedGain: p => {
    const pre = p.pre.right / p.pre.answered;
    return pre === 1 ? NaN : (p.post.right / p.post.answered - pre) / (1 - pre);
  },
};
const MACRO: Record<keyof typeof MICRO, (c: Cell) => number> = {
  pre: c => accuracy(c.phases.pre), post: c => accuracy(c.phases.post), near: c => accuracy(c.phases.near), far: c => accuracy(c.phases.far),
  gain: gainOf, nearFarGap: c => accuracy(c.phases.near) - accuracy(c.phases.far), normalisedGain: normalisedGainOf,
};

/** Mean of the defined values; NaN when none is. */
function meanDefined(values: Iterable<number>): number {
  let sum = 0;
  let n = 0;
  for (const v of values) if (!Number.isNaN(v)) { sum += v; n++; }
  return n === 0 ? NaN : sum / n;
}

/** Figures of one group of cells, with intervals from resampling its units. */
function summariseGroup(group: string, cells: Cell[], o: SummariseOptions): OutcomeSummary {
  const byUnit = new Map<string, Cell[]>();
  for (const c of cells) byUnit.set(c.unit, [...(byUnit.get(c.unit) ?? []), c]);
  const units = [...byUnit.keys()].sort();
  const unitCells = units.map(u => byUnit.get(u)!);
  const pools: Pool[] = unitCells.map(cs => {
    const p = { pre: { right: 0, answered: 0 }, post: { right: 0, answered: 0 }, near: { right: 0, answered: 0 }, far: { right: 0, answered: 0 } };
    for (const c of cs) for (const phase of Object.keys(p) as Phase[]) {
      p[phase].right += c.phases[phase].right;
      p[phase].answered += c.phases[phase].answered;
    }
    return p;
  });
  const both = (key: keyof typeof MICRO, subset: number[] = units.map((_, i) => i)): MacroMicro => {
    const unitValues = subset.map(i => meanDefined(unitCells[i]!.map(MACRO[key])));
    return {
      macro: overUnits(subset.length, idx => meanDefined(Array.from(idx, i => unitValues[i]!)), o),
      micro: overUnits(subset.length, idx => {
        const sum: Pool = { pre: { right: 0, answered: 0 }, post: { right: 0, answered: 0 }, near: { right: 0, answered: 0 }, far: { right: 0, answered: 0 } };
        for (const i of Array.from(idx)) for (const phase of Object.keys(sum) as Phase[]) {
          sum[phase].right += pools[subset[i]!]![phase].right;
          sum[phase].answered += pools[subset[i]!]![phase].answered;
        }
        return MICRO[key](sum);
      }, o),
    };
  };
  const info = (u: string) => {
    const found = o.units.get(u);
    if (!found) throw new PaideiaError(`outcomes: unit "${u}" has marks but is not among the units given`);
    return found;
  };
  const subsetsBy = (keyOf: (u: string) => string): Record<string, Estimate> => {
    const out: Record<string, Estimate> = {};
    const keys = [...new Set(units.map(keyOf))].sort();
    for (const k of keys) out[k] = both('gain', units.flatMap((u, i) => (keyOf(u) === k ? [i] : []))).macro;
    return out;
  };
  const negativeGains = cells.flatMap(c => {
    const gain = gainOf(c);
    return gain < 0 ? [{ unit: c.unit, deck: c.deck, learner: c.learner, pre: accuracy(c.phases.pre), post: accuracy(c.phases.post), gain }] : [];
  });
  return {
    group, units: units.length,
    pre: both('pre'), post: both('post'), gain: both('gain'), near: both('near'), far: both('far'), nearFarGap: both('nearFarGap'),
    ...(o.normalisedGain ? { normalisedGain: { ...both('normalisedGain'), undefinedCells: cells.filter(c => Number.isNaN(normalisedGainOf(c))).length } } : {}),
    gainByBand: subsetsBy(u => info(u).difficulty.band) as Partial<Record<DifficultyBand, Estimate>>,
    gainByTaskType: subsetsBy(u => info(u).task_type),
    negativeGains,
    failedAnswers: cells.reduce((s, c) => s + c.phases.pre.failed + c.phases.post.failed + c.phases.near.failed + c.phases.far.failed, 0),
  };
}

/**
 * Learning outcomes per group (default: per deck), every figure with a seeded bootstrap interval
 * over units (2,000 resamples unless told). Groups come out sorted by name.
 */
export function summariseOutcomes(cells: readonly Cell[], o: SummariseOptions): OutcomeSummary[] {
  const groupOf = o.groupOf ?? (c => c.deck);
  const groups = new Map<string, Cell[]>();
  for (const c of cells) groups.set(groupOf(c), [...(groups.get(groupOf(c)) ?? []), c]);
  return [...groups.keys()].sort().map(g => summariseGroup(g, groups.get(g)!, o));
}
