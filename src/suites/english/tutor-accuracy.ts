import type { Item } from '../../core/index.js';
import type { TestBuilder } from '../builder.js';
import { SUITE, SYNTHETIC_NOTE, baseItem } from './items.js';
import type { ParadigmSelection } from './paradigms.js';
import { EXERCISE_L1S } from './instructions.js';
import { loadSources, planByParadigm, type Pool, type UsablePair } from './pools.js';
import { seededKey, seededOrder } from './seeded.js';

const TEST = 'tutor_accuracy';

/** The marked answer of a tutor item: copied from the pair, or derived from its word difference. */
export interface TutorAnswer {
  has_error: boolean;
  wrong_span: string | null;
  correction: string | null;
  corrected_sentence: string;
}

/**
 * `tutor_accuracy`: a learner's sentence with one error or none. Each paradigm gives its share of
 * pairs from the front of its seeded order. Every third pair (positions 1, 4, 7, ...) shows its good
 * sentence unchanged, the others their bad sentence: a paradigm giving q items has round(q / 3)
 * without an error, and since the role hangs on the pair's place in the seeded order, not on the
 * target, an id names the same item in a build of any size. The learner's L1 (`l1`, the four of the
 * exercises) is dealt in turn along each paradigm's seeded order from a seeded start: within one
 * item of even inside every paradigm, and, hanging on the pair's place too, the same for any target.
 */
export function tutorAccuracyBuilder(selection?: ParadigmSelection): TestBuilder {
  return {
    suite: SUITE,
    test: TEST,
    rule:
      'BLiMP minimal pairs, spread evenly over the selected paradigms. About two thirds of the items show sentence_bad as ' +
      "the learner's sentence, with sentence_good as the correction and the pair's one differing word span as " +
      'wrong_span -> correction; the other third show the sentence_good of other pairs unchanged (no error). Pairs whose ' +
      "sentences differ in more than one place are skipped. Each item carries a learner's L1 (pt, es, vi, ja), dealt " +
      'in turn along each paradigm from a seeded start, as the exercises are, so scores can be reported per L1.',
    build: function buildTutorAccuracy(ctx) {
      const plan = planByParadigm(TEST, ctx.targetPerTest, loadSources(ctx.sourcesDir, ctx.seed, selection), ctx.seed);
      const l1Order = seededOrder(EXERCISE_L1S, ctx.seed, 'tutor-l1-order', l1 => l1);
      const items = plan.pools.flatMap((pool, i) => {
        const start = parseInt(seededKey(ctx.seed, 'tutor-l1-start', pool.uid).slice(0, 2), 16) % l1Order.length;
        return pool.pairs.slice(0, plan.quotas[i]).map((pair, j) => {
          const l1 = l1Order[(start + j) % l1Order.length]!;
          return { ...(j % 3 === 1 ? cleanItem(pool, pair) : errorItem(pool, pair)), l1 };
        });
      });
      return { items, shortfalls: plan.shortfalls, strata: plan.strata, exclusions: plan.exclusions };
    },
  };
}

function errorItem(pool: Pool, pair: UsablePair): Item {
  const { record, diff } = pair;
  const answer: TutorAnswer = {
    has_error: true,
    wrong_span: diff.bad.text,
    correction: diff.good.text,
    corrected_sentence: record.sentence_good,
  };
  // Argument-structure pairs fix the error by swapping the verb, which a tutor seldom does.
  const verbSwap =
    pool.term === 'argument_structure'
      ? ' Here BLiMP swaps the verb; adding or removing an object can fix the sentence as well.'
      : '';
  const widened = diff.widened
    ? ' A word is missing or extra; wrong_span and correction include the neighbouring word so neither is empty.'
    : '';
  return {
    ...baseItem(pool, pair, TEST),
    input: { sentence: record.sentence_bad, language: 'en' },
    accepted: [record.sentence_good],
    answer,
    notes: `${SYNTHETIC_NOTE} The error is the pair's one differing span; other grammatical corrections may exist (accepted holds the BLiMP one).${verbSwap}${widened}`,
  };
}

function cleanItem(pool: Pool, pair: UsablePair): Item {
  const answer: TutorAnswer = {
    has_error: false,
    wrong_span: null,
    correction: null,
    corrected_sentence: pair.record.sentence_good,
  };
  return {
    ...baseItem(pool, pair, TEST),
    input: { sentence: pair.record.sentence_good, language: 'en' },
    accepted: [pair.record.sentence_good],
    answer,
    notes: `${SYNTHETIC_NOTE} No error: the acceptable sentence of the pair, unchanged.`,
  };
}
