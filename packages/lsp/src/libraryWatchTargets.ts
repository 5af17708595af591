import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { DidChangeWatchedFilesRegistrationOptions, Registration } from 'vscode-languageserver-protocol';
import { isWithin, uriToPath } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { inNotIndexedDir, isNotIndexedDir } from './sourceTree.js';

/** More would be a server watching far more than its environment: the first ones are watched. */
const MAX_TARGETS = 32;

/**
 * The directories a server asked to watch (the bases of its relative-pattern
 * `workspace/didChangeWatchedFiles` registrations) that the workspace's own watcher does not see:
 * outside every root, or inside a directory it skips (`.venv`). pyright registers its interpreter's
 * site-packages so: a package installed there (`pip install`) changes what its imports resolve to,
 * and pyright hears of it only through these events. `environmentDirs` (ServerDefinition.environmentDirs)
 * are the ones under a root that the server's `**` covers and the workspace watcher skips (`.venv`).
 */
export function libraryWatchTargets(registrations: readonly Registration[], roots: readonly string[], environmentDirs: readonly string[] = []): string[] {
  const targets = new Set<string>(environmentDirs.filter(isDirectory));
  for (const r of registrations) {
    if (r.method !== 'workspace/didChangeWatchedFiles') continue;
    for (const w of (r.registerOptions as DidChangeWatchedFilesRegistrationOptions | undefined)?.watchers ?? []) {
      if (typeof w.globPattern === 'string') continue;
      const base = typeof w.globPattern.baseUri === 'string' ? w.globPattern.baseUri : w.globPattern.baseUri.uri;
      const dir = uriToPath(base);
      if (!dir || !isDirectory(dir)) continue;
      if (!roots.some((root) => watchedUnder(root, dir))) targets.add(dir);
    }
  }
  return [...targets].sort().slice(0, MAX_TARGETS);
}

/** Whether `path` is one of `targets` (libraryWatchTargets) or lies in one. */
export function inLibraryTarget(targets: readonly string[], path: string): boolean {
  return targets.some((t) => isWithin(t, path));
}

/** Whether the workspace watcher of `root` sees changes in `dir`: below the root, in no directory it skips. */
function watchedUnder(root: string, dir: string): boolean {
  return isWithin(root, dir) && (dir === root || (!inNotIndexedDir(root, dir) && !isNotIndexedDir(basename(dir))));
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** libraryWatchTargets of a running server: its registrations, its workspace folders and its profile's environment directories there. */
export function serverLibraryDirs(conn: Pick<LspConnection, 'dynamicRegistrations' | 'workspaceFolders' | 'server'>): string[] {
  const folders = conn.workspaceFolders;
  return libraryWatchTargets(conn.dynamicRegistrations(), folders, folders.flatMap((f) => conn.server.environmentDirs?.(f) ?? []));
}
