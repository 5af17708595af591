/**
 * The tool handlers: one file per tool or family of tools, named after what the tools do; each
 * defines its tools with defineTool (../catalog/toolDefinition.ts) and computes the answer with
 * the rooms beside it (analysis/, symbols/, output/, project/, codeActions/, runners/).
 * ../catalog.ts lists them in the order clients see; packages/tools/README.md maps each tool name
 * to its file.
 */
export * from './applyFix.js';
export * from './assist.js';
export * from './buildTest.js';
export * from './callHierarchy.js';
export * from './checkpoints.js';
export * from './crossRepo.js';
export * from './daemons.js';
export * from './detectChanges.js';
export * from './diagnostics.js';
export * from './documents.js';
export * from './editing.js';
export * from './editingContext.js';
export * from './explore.js';
export * from './fixes.js';
export * from './goToSymbol.js';
export * from './highlights.js';
export * from './impact.js';
export * from './impactTools.js';
export * from './inlayHints.js';
export * from './lifecycle.js';
export * from './logLevel.js';
export * from './navigation.js';
export * from './prepareRename.js';
export * from './pythonDocstrings.js';
export * from './refactoring.js';
export * from './replaceInFiles.js';
export * from './safeEdit.js';
export * from './semanticTokens.js';
export * from './simulation.js';
export * from './simulationArgs.js';
export * from './simulationEnd.js';
export * from './skillPhases.js';
export * from './speculationStats.js';
export * from './symbolDelete.js';
export * from './symbolDocs.js';
export * from './symbolEdit.js';
export * from './symbolSource.js';
export * from './symbols.js';
export * from './testsForFile.js';
export * from './typeHierarchy.js';
export * from './watchedFiles.js';
