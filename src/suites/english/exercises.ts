import type { Item } from '../../core/index.js';
import type { TestBuilder } from '../builder.js';
import { EXERCISE_INSTRUCTIONS, EXERCISE_L1S, type ExerciseL1 } from './instructions.js';
import { SUITE, SYNTHETIC_NOTE, baseItem } from './items.js';
import type { ParadigmSelection } from './paradigms.js';
import { loadSources, planByParadigm, type Pool, type UsablePair } from './pools.js';
import { seededKey, seededOrder } from './seeded.js';

const TEST = 'exercises';

/** The blank that replaces the differing span. */
export const BLANK = '____';

/**
 * `exercises`: closed fill-the-blank items. Each paradigm gives its share of pairs from the back
 * of its seeded order, so they differ from the tutor items' pairs while both shares fit. L1s are
 * dealt round-robin (in a seeded order) over the items listed paradigm by paradigm, which keeps
 * every L1 within one item of the others overall and within each paradigm. Options alternate
 * between good-first and bad-first along each paradigm's seeded order (from a seeded start), so
 * either order holds for half of each paradigm's items and an item's order never depends on the target.
 */
export function exercisesBuilder(selection?: ParadigmSelection): TestBuilder {
  return {
    suite: SUITE,
    test: TEST,
    rule:
      "BLiMP minimal pairs, spread evenly over the selected paradigms and over the learner's L1 (pt, es, vi, ja): the " +
      `sentence with the pair's one differing span replaced by ${BLANK}, the two forms as options in seeded order, the ` +
      "form from sentence_good accepted, and a fixed instruction in the learner's L1 written by the Paideia authors. " +
      'Pairs whose sentences differ in more than one place are skipped.',
    build: function buildExercises(ctx) {
      const plan = planByParadigm(TEST, ctx.targetPerTest, loadSources(ctx.sourcesDir, ctx.seed, selection), ctx.seed);
      const drawn = plan.pools.flatMap((pool, i) => {
        const start = parseInt(seededKey(ctx.seed, 'option-order', pool.uid).slice(0, 1), 16) % 2;
        return [...pool.pairs]
          .reverse()
          .slice(0, plan.quotas[i])
          .map((pair, j) => ({ pool, pair, goodFirst: (j + start) % 2 === 0 }));
      });
      const l1Order = seededOrder(EXERCISE_L1S, ctx.seed, 'l1-order', l1 => l1);
      const items = drawn.map((d, n) => exerciseItem(d.pool, d.pair, l1Order[n % l1Order.length]!, d.goodFirst));
      return { items, shortfalls: plan.shortfalls, strata: plan.strata, exclusions: plan.exclusions };
    },
  };
}

function exerciseItem(pool: Pool, pair: UsablePair, l1: ExerciseL1, goodFirst: boolean): Item {
  const { diff } = pair;
  const options = goodFirst ? [diff.good.text, diff.bad.text] : [diff.bad.text, diff.good.text];
  const instruction = EXERCISE_INSTRUCTIONS[l1].text;
  return {
    ...baseItem(pool, pair, TEST, l1),
    l1,
    input: { sentence: `${diff.before}${BLANK}${diff.after}`, options, instruction, l1 },
    accepted: [diff.good.text],
    notes: `${SYNTHETIC_NOTE} Options are the two forms of the pair's one differing span; the instruction is a fixed ${EXERCISE_INSTRUCTIONS[l1].language} template.`,
  };
}
