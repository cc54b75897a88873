import type { TestBuilder } from '../builder.js';
import { exercisesBuilder } from './exercises.js';
import type { ParadigmSelection } from './paradigms.js';
import { tutorAccuracyBuilder } from './tutor-accuracy.js';

export { DEFAULT_SELECTION, exclusionReason, topicLabel, type ParadigmSelection } from './paradigms.js';
export { EXERCISE_INSTRUCTIONS, EXERCISE_L1S, type ExerciseL1 } from './instructions.js';
export { diffRecord, diffSentences, type PairDiff, type SpanDiff } from './diff.js';
export { exercisesBuilder, BLANK } from './exercises.js';
export { tutorAccuracyBuilder, type TutorAnswer } from './tutor-accuracy.js';

export interface EnglishBuilderOptions {
  /** Which BLiMP paradigms to use; defaults to DEFAULT_SELECTION (see docs/suites-english.md). */
  selection?: ParadigmSelection;
}

/** The English suite's builders (tests `tutor_accuracy` and `exercises`) with chosen options. */
export function createEnglishBuilders(options: EnglishBuilderOptions = {}): TestBuilder[] {
  return [tutorAccuracyBuilder(options.selection), exercisesBuilder(options.selection)];
}

/** The English suite's builders with the default paradigm selection; src/suites/build.ts runs them. */
export const englishBuilders: TestBuilder[] = createEnglishBuilders();
