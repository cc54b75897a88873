import { ORIGINAL } from '../run/plan.js';
import type { StudyData } from './collect.js';
import { learnerFigures, type GeneratorFigures } from './build.js';
import type { Figure, LearnerFigureKey } from './figures.js';

type LearnerFigures = Record<LearnerFigureKey, Figure>;

export interface Ablations {
  /** Learner capacity: each learner's figures per generator (deck as generated, first context and frames setting). */
  learners: Array<{ learner: string; spec: string; baseline: boolean; generator: string } & LearnerFigures>;
  /** With and without the puzzle's examples in the test contexts (all generators, first frames setting). */
  puzzleContext: Array<{ puzzleContext: boolean } & LearnerFigures>;
  /** All slides against a sample of k frames (all generators, first context setting). */
  frames: Array<{ frames: 'all' | number } & LearnerFigures>;
}

/** Each ablation is a condition of the one run; every figure here is over units, as the main table. */
export function ablations(data: StudyData, _generators: Record<string, GeneratorFigures>): Ablations {
  const original = data.learners.filter(l => l.record.deckVariant === ORIGINAL);
  const [ctx0, frames0] = [data.design.puzzleContext[0], data.design.frames[0]];
  return {
    learners: data.design.learners.flatMap(l => data.design.generators.map(g => ({
      learner: l.alias, spec: l.spec, baseline: l.spec === 'baseline:examples', generator: g.alias,
      ...learnerFigures(data, original.filter(r => r.record.learner.alias === l.alias && r.generator === g.alias && r.record.puzzleContext === ctx0 && r.record.frames === frames0)),
    }))),
    puzzleContext: data.design.puzzleContext.map(puzzleContext => ({ puzzleContext, ...learnerFigures(data, original.filter(r => r.record.puzzleContext === puzzleContext && r.record.frames === frames0)) })),
    frames: data.design.frames.map(frames => ({ frames, ...learnerFigures(data, original.filter(r => r.record.frames === frames && r.record.puzzleContext === ctx0)) })),
  };
}
