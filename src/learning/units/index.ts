export { unitSchema, unitItemSchema, bandOf, TASK_TYPES, DIFFICULTY_BANDS, ITEM_SETS, type Unit, type UnitItem, type ItemSet, type DifficultyBand } from './schema.js';
export { checkUnit, teachingTexts, type UnitProblem } from './checks.js';
export { checkUnitText, checkUnits, loadUnits, findUnit, unitFiles, type LoadedUnit } from './load.js';
export { buildOutline, DECK_LIMITS, type CourseOutline } from './outline.js';
export { outlineMarkdown } from './outline-markdown.js';
export { leaks, wordsOf } from './leak.js';
