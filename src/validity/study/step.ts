import type { ChatResult, Judgment, StepKind, Trial } from '../../core/index.js';
import { parseOrdinal } from '../ordinal.js';
import { ratingMessages } from './prompts.js';
import type { Study } from './load.js';
import type { Family } from './schema.js';

/** Step kind of one cell of a rating study: one rater, one prompt family, one observation x item, once. */
export const RATING_STEP = 'validity-rating';
/** Bumped when the same stored answer could give another Judgment. */
const PRODUCER_VERSION = '1';

/**
 * A rating cell as a step: it asks the rater once with its family's prompt and reads the ordinal
 * from the answer with parseOrdinal. An answer it cannot read is stored unscored with the reason
 * and the text, never guessed; a call that failed after its retries is stored unscored too.
 */
export function ratingStep(study: Study): StepKind {
  const observations = new Map(study.observations.map(o => [o.id, o]));
  const items = new Map(study.items.map(i => [i.id, i]));
  const cellOf = (trial: Trial) => ({ observation: observations.get(trial.itemId)!, item: items.get(itemOfTrial(trial))!, family: trial.variant as Family });
  const judgment = (trial: Trial, value: number | null, extra: { reason?: string; raw?: string; via?: string }): Judgment => {
    const { item, family } = cellOf(trial);
    return {
      specVersion: 'paideia.judgment.v1', runId: trial.runId, trialId: trial.id,
      // A study rates its observations directly: its judgments target their own trial.
      targetTrialId: trial.id, rater: { alias: trial.modelAlias, spec: trial.modelSpec }, promptVariant: family,
      repeat: trial.repeat, fields: value === null ? {} : { [item.id]: value }, scales: { [item.id]: { ...item.scale } }, value,
      ...(extra.reason ? { reason: extra.reason } : {}), callSeq: null,
      producer: { name: RATING_STEP, version: PRODUCER_VERSION, args: { item: item.id, family } },
      ...(extra.raw !== undefined ? { raw: extra.raw } : {}), details: { observation: trial.itemId, ...(extra.via ? { via: extra.via } : {}) },
    };
  };
  return {
    specVersion: 'paideia.step.v1',
    name: RATING_STEP,
    version: PRODUCER_VERSION,
    judgesTarget: false,
    failed({ trial }, error) {
      return { judgments: [judgment(trial, null, { reason: `the rating call failed after every attempt: ${error.message}` })] };
    },
    next({ trial, results }) {
      const { observation, item, family } = cellOf(trial);
      const answer: ChatResult | undefined = results[0];
      if (answer) {
        const parsed = parseOrdinal(answer.text, item.scale);
        return {
          type: 'done',
          judgments: [parsed.scored
            ? judgment(trial, parsed.value, { raw: answer.text, via: parsed.via })
            : judgment(trial, null, { reason: parsed.reason, raw: answer.text })],
        };
      }
      return {
        type: 'call', model: trial.modelAlias,
        // Repeats are samples: each asks on its own, even though the request is the same.
        distinct: { repeat: trial.repeat },
        request: {
          messages: ratingMessages(item, family, observation), params: study.params,
          context: { trialId: trial.id, itemId: trial.itemId, repeat: trial.repeat, turn: 0, role: `rater:${item.id}:${family}` },
        },
      };
    },
  };
}

/** The study item a trial rates (its test is `validity:<item>`). */
export function itemOfTrial(trial: Pick<Trial, 'test'>): string {
  return trial.test.slice(trial.test.indexOf(':') + 1);
}
