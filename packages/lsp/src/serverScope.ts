import type { ResolvedServer, ServerDefinition } from './serverProfile.js';

/**
 * start_lsp's `scope`: the sub-directories (root-relative) a large workspace's server should index.
 * Servers that can narrow their indexing get it in their settings (and their profile, so a scoped
 * broker is not shared with an unscoped one); the others are named, with why, so the agent is
 * never left believing a scope applies where it does not.
 */
export interface ScopeSupport {
  honoured: boolean;
  /** How the server honours it, or why it cannot. */
  note: string;
}

export function scopeSupport(server: ServerDefinition): ScopeSupport {
  switch (server.id) {
    case 'pyright':
      return { honoured: true, note: 'analyses only these directories (python.analysis.include)' };
    case 'gopls':
      return { honoured: true, note: 'loads only these directories (directoryFilters)' };
    case 'typescript':
    case 'typescript-go':
      return { honoured: false, note: "cannot honour it: tsserver's projects come from tsconfig.json (narrow its include instead)" };
    case 'clangd':
      return { honoured: false, note: 'cannot honour it: clangd indexes what compile_commands.json lists' };
    default:
      return { honoured: false, note: 'cannot honour it: agent-lsp knows no setting of this server that narrows indexing' };
  }
}

function withScope(server: ServerDefinition, resolved: ResolvedServer, rootDir: string, scope: readonly string[]): ResolvedServer {
  const fingerprint = `${resolved.profileFingerprint}|scope=${JSON.stringify(scope)}`;
  if (server.id === 'pyright') {
    const python = (resolved.settings['python'] ?? {}) as Record<string, unknown>;
    const analysis = (python['analysis'] ?? {}) as Record<string, unknown>;
    const include = scope.map((dir) => `${rootDir}/${dir}`);
    return { ...resolved, settings: { ...resolved.settings, python: { ...python, analysis: { ...analysis, include } } }, profileFingerprint: fingerprint };
  }
  if (server.id === 'gopls') {
    // gopls: "-" excludes everything, then each "+dir" brings a directory back.
    const directoryFilters = ['-', ...scope.map((dir) => `+${dir}`)];
    const gopls = { ...((resolved.settings['gopls'] ?? {}) as Record<string, unknown>), directoryFilters };
    return { ...resolved, settings: { ...resolved.settings, gopls }, initializationOptions: { ...resolved.initializationOptions, directoryFilters }, profileFingerprint: fingerprint };
  }
  return resolved;
}

/** The server resolved for a root, narrowed to `scope` where it can be (see scopeSupport). */
export function resolveScoped(server: ServerDefinition, rootDir: string, scope: readonly string[] | undefined): ResolvedServer | undefined {
  const resolved = server.resolve(rootDir);
  if (!resolved || !scope || scope.length === 0) return resolved;
  return withScope(server, resolved, rootDir, scope);
}
