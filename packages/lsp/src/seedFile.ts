import { extname } from 'node:path';
import { pathToUri } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { readRegularFileSync } from './diskText.js';
import { walkSourceTree } from './sourceTree.js';

/**
 * A source file near the root whose opening makes the server load the main project (tsserver
 * loads a project only for open files). Breadth-first, shallow, deterministic.
 */
export function findSeedFile(root: string, extensions: readonly string[], maxDepth = 4): string | undefined {
  return findSourceFiles(root, extensions, 1, maxDepth)[0];
}

/** Up to `limit` source files under the root, nearest first, vendored and build dirs skipped. */
export function findSourceFiles(root: string, extensions: readonly string[], limit: number, maxDepth = 8): string[] {
  const found: string[] = [];
  if (limit <= 0) return found;
  for (const path of walkSourceTree(root, { maxDepth })) {
    if (!extensions.includes(extname(path)) || path.endsWith('.d.ts')) continue;
    found.push(path);
    if (found.length >= limit) break;
  }
  return found;
}

/**
 * Opens `path` in the server as an internal document (not the agent's) with its disk text, so the
 * server loads what it loads only for an open file. Returns its URI, or undefined when unreadable.
 */
export function openSeedFile(conn: Pick<LspConnection, 'documents' | 'server' | 'logger'>, path: string): string | undefined {
  const uri = pathToUri(path);
  const file = readRegularFileSync(path);
  if (!file) {
    conn.logger.warn(`could not open ${path} to load the project`);
    return undefined;
  }
  conn.documents.sync(uri, conn.server.extensions[extname(path)] ?? conn.server.languageIds[0] ?? 'plaintext', file.text, { internal: true, disk: file.state });
  return uri;
}
