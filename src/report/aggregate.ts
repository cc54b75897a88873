import type { ScorerRef } from '../core/index.js';

/**
 * Per model, test and item, the mean of the headline scorer over the item's repeats: result k is
 * row k of typed columns (no object per result), in the order of each result's first trial by
 * (repeat, plan index).
 */
export interface ItemResults {
  readonly size: number;
  /** The results' model and test, as numbers into `cells`. */
  readonly cellOf: Uint32Array;
  readonly cells: ReadonlyArray<{ model: string; test: string }>;
  /** The results' items, as numbers into the report's ItemTable. */
  readonly itemOf: Uint32Array;
  /** Mean over scored repeats, or null when no repeat could be scored. */
  value(k: number): number | null;
  /** More than one scored repeat, all with the same value / with more than one value. */
  consistency(k: number): 'one' | 'same' | 'differ';
  /** Trials of this item that failed (provider errors); they are not among the repeats. */
  failed(k: number): number;
  unscored(k: number): number;
  costUsd(k: number): number;
  scorer(k: number): ScorerRef | undefined;
  /** The newest answer text and score reason, for failure examples (public items only). */
  lastAnswer(k: number): string | undefined;
  lastReason(k: number): string | undefined;
  /** The result of a cell on an item, if there is one. */
  find(cell: number, item: number): number | undefined;
}
