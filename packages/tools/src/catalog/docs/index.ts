/**
 * The documentation of the tools beyond their schemas, by family: details (*Details.ts, gathered by
 * ../toolDetails.ts) and worked examples on examples/workspace (*Examples.ts, gathered by
 * ../examples.ts); docs/tools.md is rendered from them (scripts/gen-tools-doc.mjs).
 */
export * from './buildDetails.js';
export * from './buildExamples.js';
export * from './fixesDetails.js';
export * from './fixesExamples.js';
export * from './impactDetails.js';
export * from './impactExamples.js';
export * from './prefetchDetails.js';
export * from './prefetchExamples.js';
export * from './skillPhasesDetails.js';
export * from './skillPhasesExamples.js';
export * from './symbolDetails.js';
export * from './symbolExamples.js';
export * from './symnavDetails.js';
export * from './symnavExamples.js';
