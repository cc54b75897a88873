import { extend, type ChatParams, type Item, type Scorer, type StepDecision, type StepKind, type TestDefinition } from '../core/index.js';
import { ITEM_STEP } from './plan.js';
import { scoreTrial } from './score-trial.js';

export interface ItemStepOptions {
  /** Items by version hash (those of the trials in flight, at least). */
  items: { get(hash: string): Item | undefined };
  tests: ReadonlyMap<string, TestDefinition>;
  /** Scorers of each test, by test name. */
  scorers: ReadonlyMap<string, ReadonlyArray<Scorer>>;
  /** Sampling parameters of the run (`--temperature`, `--max-tokens`), under the test's own. */
  params: ChatParams;
}

/**
 * An item test as a step: its prompt template gives the request of each step from the answers
 * so far (one step, or two for a round trip); when it has nothing more to ask, the trial is
 * scored by the test's scorers from those answers.
 */
export function itemStep(o: ItemStepOptions): StepKind {
  return {
    specVersion: 'paideia.step.v1',
    name: ITEM_STEP,
    version: '1',
    judgesTarget: false,
    async next({ trial, results }): Promise<StepDecision> {
      const item = o.items.get(trial.itemHash);
      const test = o.tests.get(trial.test);
      if (!item || !test) throw new Error(`trial ${trial.id}: no stored item ${trial.itemHash} or test "${trial.test}"`);
      const rendered = test.render(item, [...results]);
      if (!rendered) return { type: 'done', scores: await scoreTrial(trial, item, results, o.scorers.get(trial.test) ?? []) };
      return {
        type: 'call',
        model: trial.modelAlias,
        // Made per trial: extend, not a spread, keeps them on shared hidden classes (core/object.ts).
        request: extend(rendered, {
          params: extend(extend(o.params, rendered.params), { seed: trial.seed }),
          context: extend(rendered.context ?? {}, { trialId: trial.id, itemId: trial.itemId, repeat: trial.repeat, turn: results.length }),
        }),
      };
    },
  };
}
