/**
 * Project and server probing: which languages a workspace has and which server answers, waiting for
 * readiness, opening a document ready for a query, fanning a query out to several servers, answers
 * checked against the disk (freshAnswer), settled diagnostics, index scope, glob filters, and the
 * server commands a tool may pass through.
 */
export * from './documentQuery.js';
export * from './fanOut.js';
export * from './freshAnswer.js';
export * from './globFilter.js';
export * from './indexScope.js';
export * from './partialIndex.js';
export * from './languageDetection.js';
export * from './onlyServer.js';
export * from './projectLanguages.js';
export * from './projectSeeds.js';
export * from './readinessGate.js';
export * from './serverCommands.js';
export * from './settledDiagnostics.js';
