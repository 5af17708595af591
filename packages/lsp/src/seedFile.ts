import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'coverage', '.next']);

/**
 * A source file near the root whose opening makes the server load the main project (tsserver
 * loads a project only for open files). Breadth-first, shallow, deterministic.
 */
export function findSeedFile(root: string, extensions: readonly string[], maxDepth = 4): string | undefined {
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
        if (e.isFile() && extensions.includes(extname(e.name)) && !e.name.endsWith('.d.ts')) return join(dir, e.name);
      }
      for (const e of entries) {
        if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) next.push(join(dir, e.name));
      }
    }
    level = next;
  }
  return undefined;
}
