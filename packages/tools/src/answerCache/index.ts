/**
 * The answer cache (export_cache, import_cache): answers of read-only tools kept on disk, each
 * keyed on the content of every indexed file of the workspace, served only while the files are
 * exactly those it was computed on; the artifact a team shares.
 */
export * from './answerStore.js';
export * from './cacheArtifact.js';
export * from './cachedAnswers.js';
export * from './workspaceState.js';
