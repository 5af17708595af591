import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'coverage', '.next']);

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
  let level = [root];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e.isFile() && extensions.includes(extname(e.name)) && !e.name.endsWith('.d.ts')) {
          found.push(join(dir, e.name));
          if (found.length >= limit) return found;
        }
      }
      for (const e of entries) {
        if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) next.push(join(dir, e.name));
      }
    }
    level = next;
  }
  return found;
}
