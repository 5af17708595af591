import { extname } from 'node:path';
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
