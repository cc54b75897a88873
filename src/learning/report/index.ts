import type { Store } from '../../core/index.js';
import { ablations, type Ablations } from './ablations.js';
import { correlations, errorInjection, generatorFigures, type Correlation, type GeneratorFigures } from './build.js';
import { collectStudy, type StudyData } from './collect.js';
import { RESAMPLES } from './figures.js';
import type { Dimension } from '../run/plan.js';

export { collectStudy, markLearner, type StudyData, type MarkedLearner, type StudyDesign } from './collect.js';
export type { Figure } from './figures.js';
export type { GeneratorFigures, Correlation, InjectionVariant } from './build.js';

/** The learning report's data; its keys are public (docs/learning.md). */
export interface LearningReport {
  runId: string;
  kind: 'learning';
  /** How intervals were made: over units, percentile bootstrap, seeded. */
  intervals: { over: 'units'; resamples: number; seed: number; level: 0.95 };
  units: string[];
  generators: Record<string, GeneratorFigures>;
  correlations: Record<Dimension, { generators: Correlation; decks: Correlation }>;
  errorInjection: ReturnType<typeof errorInjection>;
  ablations: Ablations;
  failures: { learnerTrials: number; judgments: number };
}

/** Every figure of a learning run, from its stored decks, answers and judgments; no model is called. */
export async function learningReport(store: Store, runId: string): Promise<{ report: LearningReport; data: StudyData }> {
  const data = await collectStudy(store, runId);
  const generators = generatorFigures(data);
  return {
    data,
    report: {
      runId, kind: 'learning', intervals: { over: 'units', resamples: RESAMPLES, seed: data.design.seed, level: 0.95 },
      units: data.design.units.map(u => u.id), generators, correlations: correlations(data, generators), errorInjection: errorInjection(data),
      ablations: ablations(data, generators),
      failures: { learnerTrials: data.failedLearners.length, judgments: data.judgments.filter(j => j.value === null).length },
    },
  };
}
