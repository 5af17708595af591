import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { ServerDefinition, ServerRegistry } from '@agent-lsp/lsp';
import { detectLanguages } from './languageDetection.js';

/**
 * Files at a workspace's top, or in a top-level directory, that make it a project of their
 * language without a marker file: Python sources, or a package (a checkout of Django is `django/`
 * with its `__init__.py`, nothing else).
 */
const TOP_LEVEL_SOURCES: Readonly<Record<string, readonly string[]>> = { pyright: ['.py'] };

/** The workspace and its top-level directories (a monorepo's web/, backend/), not hidden or vendored ones. */
function projectDirs(root: string): string[] {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [root];
  }
  const subdirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules').map((e) => join(root, e.name));
  return [root, ...subdirs];
}

/**
 * Whether a workspace holds a project of the server's language: one of its root markers
 * (tsconfig.json, package.json, go.mod, Cargo.toml, compile_commands.json…) at the top or in a
 * top-level directory, or for Python a source file there (a package directory counts). A server without markers (a custom
 * one) has a project wherever it has files.
 */
export function hasProjectFor(root: string, server: ServerDefinition): boolean {
  if (server.rootMarkers.length === 0) return server.projectOnly !== true;
  if (projectDirs(root).some((dir) => server.rootMarkers.some((m) => existsSync(join(dir, m))))) return true;
  const sources = TOP_LEVEL_SOURCES[server.id];
  if (!sources) return false;
  return projectDirs(root).some((dir) => {
    try {
      return readdirSync(dir).some((name) => sources.includes(extname(name).toLowerCase()));
    } catch {
      return false;
    }
  });
}

/**
 * The servers a workspace-wide query (find_symbol without language_id) asks besides those already
 * running: languages the workspace has files and a project of, whose server is installed. A few
 * .js files beside a Python project start no TypeScript server.
 */
export async function projectLanguages(root: string, registry: ServerRegistry): Promise<ServerDefinition[]> {
  return (await detectLanguages(root, registry))
    .map((d) => d.server)
    .filter((server) => server.resolve(root) !== undefined && hasProjectFor(root, server));
}
