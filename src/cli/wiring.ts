import { BUILT_IN_TESTS } from '../suites/tests/index.js';
import { builtInScorers } from '../scoring/builtins.js';

export const tests = BUILT_IN_TESTS;
export const scorers = builtInScorers();
export { buildModels, type ModelWiring } from '../engine/models.js';
