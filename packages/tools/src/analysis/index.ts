/**
 * Derived analysis: answers computed from several server answers and the disk, beyond one LSP
 * request — call and type graphs, blast radius, changed symbols of a git diff, rename checks,
 * removed uses, test-file rules, textual occurrences for replace_in_files, concurrent callers
 * (find_callers cross_concurrent) and sync-guarded types (blast_radius sync_guarded).
 */
export * from './baseSymbols.js';
export * from './blastRadius.js';
export * from './callGraph.js';
export * from './codeWords.js';
export * from './concurrentCallers.js';
export * from './gitDiff.js';
export * from './removedUses.js';
export * from './renameCheck.js';
export * from './symbolChanges.js';
export * from './syncGuarded.js';
export * from './testFiles.js';
export * from './textOccurrences.js';
export * from './typeGraph.js';
export * from './typeHeads.js';
