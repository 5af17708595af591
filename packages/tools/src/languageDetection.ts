import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerDefinition, ServerRegistry } from '@agent-lsp/lsp';

const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'target', '__pycache__', '.venv', 'venv', '.tox', 'coverage']);
const MAX_ENTRIES = 20_000;

export interface DetectedLanguage {
  server: ServerDefinition;
  files: number;
}

/** Which servers a workspace needs, by counting source files (bounded walk, vendored dirs skipped). */
export function detectLanguages(root: string, registry: ServerRegistry): DetectedLanguage[] {
  const counts = new Map<ServerDefinition, number>();
  const stack = [root];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_ENTRIES) {
    const dir = stack.pop() as string;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      seen++;
      if (e.isDirectory()) {
        if (!SKIP.has(e.name) && !e.name.startsWith('.')) stack.push(join(dir, e.name));
      } else if (e.isFile()) {
        const route = registry.forFile(e.name);
        if (route) counts.set(route.server, (counts.get(route.server) ?? 0) + 1);
      }
    }
  }
  return [...counts].map(([server, files]) => ({ server, files })).sort((a, b) => b.files - a.files);
}
