import type { JsonValue, Score, Trial } from '../../core/index.js';
import type { ExpertRow, Scale } from '../table.js';
import { observationIdOf } from './observations.js';

/** Scorer-name prefix of expert scores imported into a run (`paideia scenario import --rater NAME`). */
export const HUMAN_SCORER_PREFIX = 'human:';

/**
 * Expert rows from the human scores imported into a run: one per scored field that the run's
 * judges rate on a scale (the field's path is the item), the expert named after the import.
 * Values off the item's scale are left out; the newest import of a cell counts.
 */
export function expertsFromScores(scores: ReadonlyArray<Score>, trials: ReadonlyMap<string, Trial>, scales: ReadonlyMap<string, Scale>): ExpertRow[] {
  const out = new Map<string, ExpertRow>();
  for (const s of scores) {
    if (!s.scorer.name.startsWith(HUMAN_SCORER_PREFIX)) continue;
    const trial = trials.get(s.trialId);
    const fields = s.details?.fields as Record<string, JsonValue> | undefined;
    if (!trial || !fields || typeof fields !== 'object') continue;
    const expert = s.scorer.name.slice(HUMAN_SCORER_PREFIX.length);
    for (const [item, v] of Object.entries(fields)) {
      const scale = scales.get(item);
      if (!scale || typeof v !== 'number' || v < scale.min || v > scale.max) continue;
      const observation = observationIdOf(trial);
      out.set(JSON.stringify([observation, item, expert]), { observation, item, expert, score: v });
    }
  }
  return [...out.values()];
}
