/**
 * paideia: the core API. Statistics are in `paideia/stats`, text metrics in `paideia/metrics`.
 * Data flows config -> items -> providers -> engine -> store -> scorers -> report.
 */
export * from './core/index.js';
export { loadItems, itemFiles } from './suites/load.js';
export { buildSuites, describeBuilders, defaultBuilders } from './suites/build.js';
export { BUILT_IN_TESTS } from './suites/tests/index.js';
export { createChatModel } from './providers/index.js';
export { wrapChatModel, retryMiddleware, rateLimitMiddleware, concurrencyMiddleware } from './providers/middleware/index.js';
export { loadPriceTable, priceFor, costOf, estimateCost } from './providers/pricing.js';
export { planTrials } from './engine/plan.js';
export { executeRun, type RunEvent, type RunSummary, type CostModel } from './engine/execute.js';
export { runSuite, type RunSuiteOptions } from './engine/run-suite.js';
export { rescoreRun } from './engine/rescore.js';
export { openStore, createSqliteStore, DEFAULT_STORE_URL } from './store/index.js';
export { ScorerRegistry, type ScorerFactory } from './scoring/registry.js';
export { builtInScorers } from './scoring/builtins.js';
export { buildReportData, renderHtml, renderMarkdown, writeReport, type ReportData } from './report/index.js';
