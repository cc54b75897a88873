import type { Pool, UsablePair } from './pools.js';

export const SUITE = 'english';

/** Evidence label of every English item; docs/suites-english.md defines it. */
export const EVIDENCE = 'blimp-minimal-pair' as const;

/** Why a BLiMP sentence may read strangely: said on every item, since it is shown to a model as a learner's. */
export const SYNTHETIC_NOTE =
  'BLiMP sentences are generated from templates and can be odd in meaning; only grammar is at issue.';

/** The fields every English item shares (design.md "Items" plus topic_label and phenomenon). */
export interface BaseFields {
  id: string;
  test: string;
  language: 'en';
  topic: string;
  /** Learner-friendly name of the paradigm. */
  topic_label: string;
  /** BLiMP's `linguistics_term` of the paradigm, for grouping paradigms into phenomena. */
  phenomenon: string;
  source: { dataset: 'BLiMP'; file: string; key: string };
  licence: 'CC-BY-4.0';
  evidence: typeof EVIDENCE;
  visibility: 'private';
  contamination: 'public-source';
  human_checked: false;
}

/**
 * Builds the shared fields. The id is built from the source key (never a counter),
 * so an item keeps its id however many others are drawn around it.
 */
export function baseItem(pool: Pool, pair: UsablePair, test: string, suffix = ''): BaseFields {
  return {
    id: `blimp:${pool.uid}:${pair.record.pairID}:${test}${suffix ? `:${suffix}` : ''}`,
    test,
    language: 'en',
    topic: pool.uid,
    topic_label: pool.label,
    phenomenon: pool.term,
    source: { dataset: 'BLiMP', file: pool.file, key: `pairID ${pair.record.pairID}` },
    licence: 'CC-BY-4.0',
    evidence: EVIDENCE,
    visibility: 'private',
    contamination: 'public-source',
    human_checked: false,
  };
}
