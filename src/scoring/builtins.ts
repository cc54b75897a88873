import { chrfScorer, roundTripChrfScorer } from './chrf/index.js';
import { exactScorer } from './exact/index.js';
import { ScorerRegistry } from './registry.js';
import { tutorEditScorer } from './tutor-edit/index.js';

/** A registry holding every built-in scorer. */
export function builtInScorers(): ScorerRegistry {
  return new ScorerRegistry()
    .register('exact', exactScorer)
    .register('chrf', chrfScorer)
    .register('round-trip-chrf', roundTripChrfScorer)
    .register('tutor-edit', tutorEditScorer);
}
