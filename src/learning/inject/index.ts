export { INJECTION_FAMILIES, INJECTION_KINDS, type DeckChange, type InjectedDeck, type InjectionFamily, type InjectionKind } from './types.js';
export { injectError, INJECTIONS } from './inject.js';
export { swapRule, swappableTokens } from './knowledge.js';
export { removeExamples, scrambleSlides } from './pedagogy.js';
export { flattenTables, removeColour } from './visual.js';
export { leakAnswers } from './integrity.js';
export { greyOf } from './greyscale.js';
export { analyseInjections, DIMENSIONS, TARGETED, type Dimension, type DimensionDrop, type FamilyEffect, type InjectionPair } from './analysis.js';
