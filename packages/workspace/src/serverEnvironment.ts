import type { LspConnection } from '@agent-lsp/lsp';

/**
 * How what a connection's server answers from beyond its command (ServerDefinition.environmentOf:
 * pyright's Python interpreter) is no longer the root's, as words for a log line; undefined while
 * it is the same.
 */
export function environmentChange(conn: LspConnection, root: string): string | undefined {
  const now = conn.server.environmentOf?.(root);
  const then = conn.resolved.environment;
  return now !== undefined && then !== undefined && now !== then ? `environment changed (${then} → ${now})` : undefined;
}
