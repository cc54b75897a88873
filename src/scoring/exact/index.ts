import type { JsonObject, Scorer, ScoreResult } from '../../core/index.js';
import { matchesAccepted } from '../../metrics/index.js';

/**
 * Exact match against any accepted answer after light normalisation (Unicode NFC, case, apostrophe
 * variants, outer and repeated spaces). `args` are passed to `matchesAccepted` as its options, so a
 * suite can switch a step off and the switch is recorded with every score.
 */
export function exactScorer(args: JsonObject = {}): Scorer {
  return {
    ref: { name: 'exact', version: '1', args },
    score: function exact({ item, outputs }): ScoreResult {
      const answer = outputs.at(-1) ?? '';
      const accepted = item.accepted ?? item.references ?? [];
      const m = matchesAccepted(answer, accepted, args);
      return m.matched
        ? { value: 1, details: { acceptedIndex: m.acceptedIndex, normalizedAnswer: m.normalizedAnswer } }
        : { value: 0, reason: answer.trim() ? 'no accepted answer matched' : 'empty answer', details: { normalizedAnswer: m.normalizedAnswer } };
    },
  };
}
