import { basename } from 'node:path';
import { walkSourceTreeAsync, type ServerDefinition, type ServerRegistry } from '@agent-lsp/lsp';

const MAX_ENTRIES = 20_000;

export interface DetectedLanguage {
  server: ServerDefinition;
  files: number;
}

/**
 * Which servers a workspace needs, by counting source files (bounded walk, vendored dirs skipped;
 * asynchronous, so a large tree does not stall the process while it is counted).
 */
export async function detectLanguages(root: string, registry: ServerRegistry): Promise<DetectedLanguage[]> {
  const counts = new Map<ServerDefinition, number>();
  for await (const path of walkSourceTreeAsync(root, { maxEntries: MAX_ENTRIES })) {
    const route = registry.forFile(basename(path));
    if (route) counts.set(route.server, (counts.get(route.server) ?? 0) + 1);
  }
  return [...counts].map(([server, files]) => ({ server, files })).sort((a, b) => b.files - a.files);
}
