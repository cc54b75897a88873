import { GROUP_FIELDS, type ScorerRef } from '../core/index.js';
import type { ReportItem } from './run-items.js';

/** Per-item result of one model on one test: the mean of the headline scorer over the item's repeats. */
export interface ItemResult {
  model: string;
  test: string;
  /** Whole when public; a private item only as its tables group it. */
  item: ReportItem;
  itemHash: string;
  /** Mean over scored repeats, or null when no repeat could be scored. */
  value: number | null;
  /** Scored values of each repeat, in repeat order. */
  repeats: number[];
  /** Trials of this item that failed (provider errors); they are not in `repeats`. */
  failed: number;
  unscored: number;
  costUsd: number;
  /** The newest answer text, for failure examples (public items only). */
  lastAnswer: string | undefined;
  lastReason: string | undefined;
  scorer: ScorerRef | undefined;
}

/** Group values an item has for the report's breakdowns. */
export function groupValues(item: ReportItem): Array<[field: string, value: string]> {
  const out: Array<[string, string]> = [];
  for (const f of GROUP_FIELDS) {
    const v = item[f];
    if (typeof v === 'string' && v) out.push([f, v]);
  }
  return out;
}
