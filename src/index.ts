/**
 * paideia: the core API. Statistics are in `paideia/stats`, text metrics in `paideia/metrics`.
 * Data flows config -> items -> providers -> engine -> store -> scorers -> report.
 */
export * from './core/index.js';
export { loadItems, itemFiles } from './suites/load.js';
export { buildSuites, describeBuilders, defaultBuilders } from './suites/build.js';
export { BUILT_IN_TESTS } from './suites/tests/index.js';
export { createChatModel, acceptsImages, imagePart, storedImagePart } from './providers/index.js';
export { wrapChatModel, retryMiddleware, rateLimitMiddleware, concurrencyMiddleware } from './providers/middleware/index.js';
export { loadPriceTable, priceFor, costOf, estimateCost } from './providers/pricing.js';
export { planTrials } from './suites/plan.js';
export { executeTrials, type ExecuteOptions } from './engine/execute.js';
export { createCallPath, requestHash, type CostModel } from './engine/call.js';
export type { RunEvent, RunSummary, StopReason } from './engine/events.js';
export { runSuite, type RunSuiteOptions } from './suites/run.js';
export { rescoreSuite } from './suites/rescore.js';
export { runScenario, loadScenario } from './scenarios/index.js';
export { rescoreScenario } from './scenarios/rescore.js';
export { openStore, createSqliteStore, DEFAULT_STORE_URL } from './store/index.js';
export { ScorerRegistry, type ScorerFactory } from './scoring/registry.js';
export { builtInScorers } from './scoring/builtins.js';
export { buildReportData, renderHtml, renderMarkdown, writeReport, type ReportData } from './report/index.js';
export { startRun, BUILT_IN_RUN_KINDS, type RunConfig } from './runs.js';
export { startRunWith, type RunHandle, type StartOptions } from './engine/start.js';
export { SuiteRunConfigSchema, type SuiteRunConfig, type SuiteRunOutcome } from './suites/run-kind.js';
export { ScenarioRunConfigSchema, type ScenarioRunConfig, type ScenarioRunOutcome } from './scenarios/run-kind.js';
export { LearningRunConfigSchema, type LearningRunConfig, learningRunKind } from './learning/run/run-kind.js';
export { analyze, readAnalysisFiles, tableFromRun, loadStudyFile, StudyRunConfigSchema, type StudyRunConfig, type StudyRunOutcome, type ValidityReport } from './validity/index.js';
