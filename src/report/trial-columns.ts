import type { Score, ScorerRef } from '../core/index.js';
import type { ItemResults } from './aggregate.js';
import { column, orderBy } from '../core/columns.js';

/** What a report keeps of one trial under test until every page is read. */
export interface TrialRow {
  model: string; test: string; item: number; repeat: number; index: number; costUsd: number; failed: boolean;
  /** The headline score, if the trial has one yet (none: pending). */
  score: Score | undefined;
  /** Kept only for public items. */
  reason: string | undefined; answer: string | undefined;
}

const FAILED = 1, SCORED = 2, NO_VALUE = 4;

/**
 * The trials of a run as typed columns (a few dozen bytes each), settled into per-item results once
 * every page is read: each result's trials taken by (repeat, plan index), as the report always has,
 * so every sum is added in the same order.
 */
export function trialColumns(itemCount: number) {
  const cellOf = column('u32'), itemOf = column('u32'), repeat = column('f64'), index = column('f64');
  const cost = column('f64'), value = column('f64'), flags = column('u8'), scorerOf = column('u32');
  const answers = new Map<number, string>(), reasons = new Map<number, string>();
  const cells: Array<{ model: string; test: string }> = [];
  const cellIndex = new Map<string, number>();
  const scorers: Array<ScorerRef | undefined> = [undefined];
  const scorerIndex = new Map<ScorerRef, number>();

  return {
    add(t: TrialRow): void {
      const key = `${t.model}\u0000${t.test}`;
      let c = cellIndex.get(key);
      if (c === undefined) cellIndex.set(key, (c = cells.push({ model: t.model, test: t.test }) - 1));
      let s = 0;
      if (t.score) {
        s = scorerIndex.get(t.score.scorer) ?? 0;
        if (s === 0) scorerIndex.set(t.score.scorer, (s = scorers.push(t.score.scorer) - 1));
      }
      const row = cellOf.push(c);
      itemOf.push(t.item); repeat.push(t.repeat); index.push(t.index); cost.push(t.costUsd); scorerOf.push(s);
      value.push(t.score?.value ?? 0);
      flags.push((t.failed ? FAILED : 0) | (t.score ? SCORED : 0) | (t.score?.value == null ? NO_VALUE : 0));
      if (t.answer !== undefined) answers.set(row, t.answer);
      if (t.reason !== undefined) reasons.set(row, t.reason);
    },

    settle(): ItemResults {
      const n = cellOf.length;
      const rc = cellOf.view(), ri = itemOf.view(), rr = repeat.view(), rx = index.view();
      const tc = cost.view(), tv = value.view(), tf = flags.view(), ts = scorerOf.view();
      let maxIndex = 0;
      for (let k = 0; k < n; k++) if (rx[k]! > maxIndex) maxIndex = rx[k]!;
      const key = new Float64Array(n);
      for (let k = 0; k < n; k++) key[k] = rr[k]! * (maxIndex + 1) + rx[k]!;
      const order = orderBy(key);
      // Result of each cell on each item; -1: none yet.
      const resultOf = cells.map(() => new Int32Array(itemCount).fill(-1));
      const out = {
        cell: new Uint32Array(n), item: new Uint32Array(n), sum: new Float64Array(n), first: new Float64Array(n), scored: new Uint32Array(n),
        differ: new Uint8Array(n), failed: new Uint32Array(n), unscored: new Uint32Array(n), cost: new Float64Array(n), scorer: new Uint32Array(n),
        answers: new Map<number, string>(), reasons: new Map<number, string>(),
      };
      let size = 0;
      for (const t of order) {
        const byItem = resultOf[rc[t]!]!;
        let k = byItem[ri[t]!]!;
        if (k < 0) { k = byItem[ri[t]!] = size++; out.cell[k] = rc[t]!; out.item[k] = ri[t]!; }
        out.cost[k] = out.cost[k]! + tc[t]!;
        if (tf[t]! & FAILED) { out.failed[k] = out.failed[k]! + 1; continue; }
        if (!(tf[t]! & SCORED)) continue; // pending: not finished yet
        out.scorer[k] = ts[t]!;
        setOrDelete(out.answers, k, answers.get(t));
        setOrDelete(out.reasons, k, reasons.get(t));
        if (tf[t]! & NO_VALUE) { out.unscored[k] = out.unscored[k]! + 1; continue; }
        if (out.scored[k] === 0) out.first[k] = tv[t]!;
        else if (tv[t]! !== out.first[k]) out.differ[k] = 1;
        out.scored[k] = out.scored[k]! + 1;
        out.sum[k] = out.sum[k]! + tv[t]!;
      }
      return itemResults(size, out, cells, scorers, resultOf);
    },
  };
}

function setOrDelete(m: Map<number, string>, k: number, v: string | undefined): void {
  if (v === undefined) m.delete(k);
  else m.set(k, v);
}

function itemResults(
  size: number,
  o: { cell: Uint32Array; item: Uint32Array; sum: Float64Array; scored: Uint32Array; differ: Uint8Array; failed: Uint32Array; unscored: Uint32Array; cost: Float64Array; scorer: Uint32Array; answers: Map<number, string>; reasons: Map<number, string> },
  cells: ReadonlyArray<{ model: string; test: string }>, scorers: ReadonlyArray<ScorerRef | undefined>, resultOf: Int32Array[],
): ItemResults {
  return {
    size, cells, cellOf: o.cell.subarray(0, size), itemOf: o.item.subarray(0, size),
    value: k => (o.scored[k]! > 0 ? o.sum[k]! / o.scored[k]! : null),
    consistency: k => (o.scored[k]! < 2 ? 'one' : o.differ[k] ? 'differ' : 'same'),
    failed: k => o.failed[k]!,
    unscored: k => o.unscored[k]!,
    costUsd: k => o.cost[k]!,
    scorer: k => scorers[o.scorer[k]!],
    lastAnswer: k => o.answers.get(k),
    lastReason: k => o.reasons.get(k),
    find(cell, item) {
      const k = resultOf[cell]?.[item];
      return k === undefined || k < 0 ? undefined : k;
    },
  };
}
