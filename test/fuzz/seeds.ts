import { readFileSync } from 'node:fs';
import { LOOP_SCENARIO } from '../../src/scenarios/testing/fixtures.js';

/** A valid item line: the mutations start from it. */
export const VALID_ITEM = {
  id: 'a', test: 'grammar_forms', language: 'ga', input: { lemma: 'iarnród', pos: 'noun' }, accepted: ['iarnróid'],
  source: { dataset: 'BuNaMo', file: 'noun.xml', key: 'sgGen' }, licence: 'ODbL-1.0', evidence: 'bunamo-form',
  visibility: 'public', contamination: 'public-source', human_checked: false,
};

/** Valid scenarios: the test fixture and two shipped ones. */
export const SCENARIO_SEEDS: readonly string[] = [
  LOOP_SCENARIO,
  ...['knowledge-explanation', 'socratic-problem-solving'].map(name => readFileSync(new URL(`../../scenarios/${name}.yaml`, import.meta.url), 'utf8')),
];
