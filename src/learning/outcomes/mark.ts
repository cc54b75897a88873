import { matchesAccepted, type NormalizeOptions } from '../../metrics/index.js';
import type { UnitItem } from '../units/index.js';

/**
 * What a learner gave for one item, as the learner step parsed it: an answer, a reply it could not
 * read as an answer (its reason kept), or a failed call (no reply at all).
 */
export type LearnerResponse =
  | { type: 'answer'; text: string }
  | { type: 'unparseable'; reason: string }
  | { type: 'failed'; reason: string };

/**
 * The mark of one item. `failed` is not a wrong answer: it leaves the item out of every accuracy
 * (and is counted apart), as a provider error must never score as a zero.
 */
export type Mark =
  | { status: 'right'; acceptedIndex: number; normalizedAnswer: string }
  | { status: 'wrong'; reason: string; normalizedAnswer?: string }
  | { status: 'failed'; reason: string };

/** What marked the answers, stored with every mark so a report can say (and redo) it. */
export interface MarkerRef {
  name: 'learning-exact';
  version: '1';
  args: NormalizeOptions;
}

export function markerRef(options: NormalizeOptions = {}): MarkerRef {
  return { name: 'learning-exact', version: '1', args: options };
}

/**
 * Marks one response with the suites' normalised exact match (matchesAccepted: NFC, case,
 * apostrophes, spaces) against the item's accepted answers, or its answer when it lists none.
 */
export function markAnswer(item: UnitItem, response: LearnerResponse, options: NormalizeOptions = {}): Mark {
  if (response.type === 'failed') return { status: 'failed', reason: response.reason };
  if (response.type === 'unparseable') return { status: 'wrong', reason: `unparseable: ${response.reason}` };
  const m = matchesAccepted(response.text, item.accepted ?? [item.answer], options);
  if (m.matched) return { status: 'right', acceptedIndex: m.acceptedIndex!, normalizedAnswer: m.normalizedAnswer };
  return { status: 'wrong', reason: m.normalizedAnswer === '' ? 'empty answer' : 'no accepted answer matched', normalizedAnswer: m.normalizedAnswer };
}
