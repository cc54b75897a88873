export { wrapChatModel, type ChatModelMiddleware } from './wrap.js';
export { retryMiddleware, backoffDelay, isRetryable, type RetrySettings } from './retry.js';
export { rateLimitMiddleware, type RateLimitSettings } from './rate-limit.js';
export { sharedSlotsMiddleware, type SharedSlotsSettings } from './rate-limit-slots.js';
export { concurrencyMiddleware } from './concurrency.js';
export { sleep, type SleepFunction } from './sleep.js';
