export { createOpenAICompatibleModel, DEFAULT_OPENAI_BASE_URL, type OpenAICompatibleSettings } from './openai-compatible/index.js';
export { createAnthropicModel, ANTHROPIC_VERSION, DEFAULT_ANTHROPIC_BASE_URL, type AnthropicSettings } from './anthropic/index.js';
export { createBaselineModel, BASELINE_NAMES, type BaselineName, type BaselineSettings } from './baseline/index.js';
export * from './middleware/index.js';
export * from './pricing.js';
export { parseRetryAfter } from './shared/retry-after.js';
export { isRetryableStatus, type FetchFunction } from './shared/post-json.js';
