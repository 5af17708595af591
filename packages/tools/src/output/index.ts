/**
 * Output shaping: how answers are written for agents — paging, locations with their line text,
 * write results and previews, simulation reports, diagnostics grouped and as text, line windows,
 * the daemon report (also `@agent-lsp/tools/daemonReport`).
 */
export * from './daemonReport.js';
export * from './diagnosticGroups.js';
export * from './diagnosticText.js';
export * from './diskLines.js';
export * from './lineWindow.js';
export * from './locations.js';
export * from './paging.js';
export * from './simulationOutput.js';
export * from './writeResult.js';
