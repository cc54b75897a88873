import type { TestBuilder } from '../builder.js';
import type { IrishOptions } from './common.js';
import { grammarFormsBuilder } from './grammar-forms.js';
import { roundTripBuilder, translationBuilder } from './translation.js';
import { tutorAccuracyBuilder } from './tutor-accuracy.js';

export { DEFAULT_OPTIONS, type IrishOptions } from './common.js';
export { grammarFormsBuilder } from './grammar-forms.js';
export { roundTripBuilder, translationBuilder } from './translation.js';
export { tutorAccuracyBuilder } from './tutor-accuracy.js';

/** The Irish suite's builders over the given sources (default: data/sources/bunamo and data/sources/irish-sentence-bank). */
export function createIrishBuilders(options: Partial<IrishOptions> = {}): TestBuilder[] {
  return [grammarFormsBuilder(options), translationBuilder(options), roundTripBuilder(options), tutorAccuracyBuilder(options)];
}

export const irishBuilders: TestBuilder[] = createIrishBuilders();
