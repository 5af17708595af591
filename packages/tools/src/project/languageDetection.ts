import { extname } from 'node:path';
import { walkSourceDirsAsync, type ServerDefinition, type ServerRegistry } from '@agent-lsp/lsp';

const MAX_ENTRIES = 20_000;

export interface DetectedLanguage {
  server: ServerDefinition;
  files: number;
}

/**
 * Which servers a workspace needs, by counting source files (bounded walk, vendored dirs skipped;
 * asynchronous, so a large tree does not stall the process while it is counted). Files are counted
 * by what routes them (their extension, or their name when they have none) and each of those is
 * routed once: routing every file of a big tree was most of start_lsp's time.
 */
export async function detectLanguages(root: string, registry: ServerRegistry): Promise<DetectedLanguage[]> {
  const byRouteKey = new Map<string, { name: string; files: number }>();
  const byName = new Map<string, number>();
  for await (const { files } of walkSourceDirsAsync(root, { maxEntries: MAX_ENTRIES })) {
    for (const name of files) {
      // The key ServerRegistry.forFile routes a file by.
      const key = extname(name).toLowerCase() || name.toLowerCase();
      const seen = byRouteKey.get(key);
      if (seen) seen.files++;
      else byRouteKey.set(key, { name, files: 1 });
      byName.set(name, (byName.get(name) ?? 0) + 1);
    }
  }
  const counts = new Map<ServerDefinition, number>();
  for (const { name, files } of byRouteKey.values()) {
    const route = registry.forFile(name);
    if (route) counts.set(route.server, (counts.get(route.server) ?? 0) + files);
  }
  withoutManifests(counts, byName, registry);
  return [...counts].map(([server, files]) => ({ server, files })).sort((a, b) => b.files - a.files);
}

/**
 * A manifest of another detected language's project is that project's configuration, not a
 * language the workspace is written in: pyproject.toml beside Python files does not make a Python
 * project a TOML one (which would start a TOML server for it and make "which server?" ambiguous),
 * as tsconfig.json beside TypeScript does not make it a JSON one. A manifest without its language's
 * files still counts.
 */
function withoutManifests(counts: Map<ServerDefinition, number>, byName: ReadonlyMap<string, number>, registry: ServerRegistry): void {
  const detected = [...counts.keys()];
  for (const name of new Set(detected.flatMap((s) => s.rootMarkers))) {
    const files = byName.get(name);
    const route = files === undefined ? undefined : registry.forFile(name);
    if (!route || files === undefined || !counts.has(route.server)) continue;
    if (!detected.some((s) => s !== route.server && s.rootMarkers.includes(name))) continue;
    const left = (counts.get(route.server) ?? 0) - files;
    if (left > 0) counts.set(route.server, left);
    else counts.delete(route.server);
  }
}
