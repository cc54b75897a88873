export * from './random/index.js';
export * from './inference/index.js';
export * from './correlation/index.js';
export * from './gtheory/index.js';
export * from './agreement/index.js';
export * from './effect/index.js';
