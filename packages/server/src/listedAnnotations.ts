import type { ToolAnnotations } from '@agent-lsp/tools';

/**
 * A tool's annotations as tools/list sends them, without the hints MCP gives no meaning or that
 * every reading agrees on when absent (~3 KB less of the catalogue every turn):
 * - readOnlyHint when false: its default, and what a client that forgets the default reads from
 *   its absence too;
 * - destructiveHint and idempotentHint of a read-only tool: MCP gives them meaning only when
 *   readOnlyHint is false (a client that read destructiveHint alone, against the spec, would at
 *   worst ask to confirm a read-only call, never skip confirming a write);
 * - idempotentHint when false, its default.
 * destructiveHint of a tool that writes and openWorldHint stay whatever they are: their defaults
 * are true, and a client deciding what to confirm may read them without their defaults in mind.
 */
export function listedAnnotations(a: ToolAnnotations): Partial<ToolAnnotations> {
  if (a.readOnlyHint) return { readOnlyHint: true, openWorldHint: a.openWorldHint };
  return { destructiveHint: a.destructiveHint, ...(a.idempotentHint ? { idempotentHint: true } : {}), openWorldHint: a.openWorldHint };
}
