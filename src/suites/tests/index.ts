import type { TestDefinition } from '../../core/index.js';
import { exercises } from './exercises.js';
import { grammarForms } from './grammar-forms.js';
import { roundTrip } from './round-trip.js';
import { translation } from './translation.js';
import { tutorAccuracy } from './tutor-accuracy.js';

/** Every built-in test, by the name items give in their `test` field. */
export const BUILT_IN_TESTS: ReadonlyMap<string, TestDefinition> = new Map(
  [grammarForms, translation, roundTrip, tutorAccuracy, exercises].map(t => [t.name, t]),
);

export { exercises, grammarForms, roundTrip, translation, tutorAccuracy };
export type { TutorAnswer } from './tutor-accuracy.js';
