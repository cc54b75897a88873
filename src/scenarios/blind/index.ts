export { rubricColumns, parseValue, scaleText, FIXED_COLUMNS, COMMENT_COLUMN, ID_COLUMN, type RubricColumn } from './columns.js';
export { buildBlindExport, blindCsv, blindRubric, storeBlindKey, BLIND_EXPORT_KIND, type BlindExport, type BlindItem, type BlindKey } from './export.js';
export { labelStudioTasks, labelStudioConfig, labelStudioRows, LS_ID } from './labelstudio.js';
export { importHumanScores, importHumanRows, type HumanRowsOptions, type ImportOptions, type ImportRow, type ImportSummary } from './import.js';
export { writeBlindExport, keyFileOf, type BlindFormat, type WrittenExport } from './write.js';
