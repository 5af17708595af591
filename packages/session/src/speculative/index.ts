export * from './commit.js';
export * from './errors.js';
export * from './evaluationReport.js';
export { SCOPES, type EvaluationHooks, type Scope } from './evaluator.js';
export * from './sessionRegistry.js';
export * from './simulationSession.js';
export { diffDiagnostics, type DiagnosticsDiff } from './diagnosticDiff.js';
export { addEditedRegion } from './rangeMapping.js';
export { minimalEdits } from './textLocation.js';
