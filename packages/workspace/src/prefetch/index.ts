export * from './prefetcher.js';
export * from './speculationGuard.js';
export * from './speculationStats.js';
export { normalizedParams } from './queryKey.js';
export { predictNext, type Prediction } from './predictionRules.js';
