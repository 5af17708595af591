/**
 * Symbols: resolving a symbol_path or a position to a symbol (symbolPath, symbolLocator,
 * symbolTarget), the document symbol tree, reading a symbol's text and extent, its uses in other
 * files, and writing a symbol (edits of bodies, inserts, deletes).
 */
export * from './symbolTree.js';
export * from './symbolDefinition.js';
export * from './symbolEdits.js';
export * from './symbolInput.js';
export * from './symbolKinds.js';
export * from './symbolLocator.js';
export * from './symbolTarget.js';
export * from './symbolText.js';
export * from './symbolWrite.js';
export * from './semanticTokenDecoding.js';
export { allSymbols, closeMatches, innermostAt, modulePrefixes, parseSymbolPath, resolveSymbolPath, symbolTree, type ParsedSymbolPath, type SymbolMatch } from './symbolPath.js';
export { usesFromOtherFiles, type SymbolUse } from './symbolUses.js';
