export * from './toolDefinition.js';
export * from './catalog.js';
export * from './schemas.js';
export * from './paging.js';
export * from './readinessGate.js';
export * from './languageDetection.js';
export { skillPhaseRules } from './tools/skillPhases.js';
export { loadRunnerConfig, type RunnerConfig } from './runners/runnerConfig.js';
