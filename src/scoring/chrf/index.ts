import type { JsonObject, Scorer, ScoreResult } from '../../core/index.js';
import { chrF, matchesAccepted, type ChrFOptions } from '../../metrics/index.js';

function options(args: JsonObject): ChrFOptions {
  const o: ChrFOptions = {};
  for (const k of ['charOrder', 'wordOrder', 'beta'] as const) if (typeof args[k] === 'number') o[k] = args[k];
  for (const k of ['whitespace', 'epsSmoothing', 'lowercase'] as const) if (typeof args[k] === 'boolean') o[k] = args[k];
  return o;
}

/**
 * Sentence-level chrF (chrF++ with `wordOrder: 2`) of the last answer against the item's references,
 * as a value in [0, 1]. The sacrebleu-style signature and the segment statistics are stored, so a
 * corpus-level score can be recomputed from the store.
 */
export function chrfScorer(args: JsonObject = {}): Scorer {
  const o = options(args);
  return {
    ref: { name: 'chrf', version: '1', args },
    score: function chrf({ item, outputs }): ScoreResult {
      const refs = item.references ?? item.accepted ?? [];
      const answer = outputs.at(-1) ?? '';
      const r = chrF(answer.trim(), refs, o);
      return { value: r.score / 100, ...(answer.trim() ? {} : { reason: 'empty answer' }), details: { chrf: r.score, signature: r.signature } };
    },
  };
}

/**
 * chrF of the back-translation against the original. A pivot step that returned the source
 * unchanged scores 0: otherwise "not translating at all" would earn a perfect round trip.
 */
export function roundTripChrfScorer(args: JsonObject = {}): Scorer {
  const o = options(args);
  return {
    ref: { name: 'round-trip-chrf', version: '1', args },
    score: function roundTripChrf({ item, outputs }): ScoreResult {
      const [pivot = '', back = ''] = outputs;
      const source = typeof item.input.text === 'string' ? item.input.text : '';
      if (matchesAccepted(pivot, [source]).matched) return { value: 0, reason: 'pivot step returned the source unchanged', details: { pivot } };
      const r = chrF(back.trim(), item.references ?? [source], o);
      return { value: r.score / 100, details: { chrf: r.score, signature: r.signature, pivot } };
    },
  };
}
