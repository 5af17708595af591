import type { ToolAnnotations } from '@agent-lsp/tools';

/**
 * A tool's annotations as tools/list sends them: without idempotentHint where it says nothing —
 * MCP gives it meaning only when readOnlyHint is false, and its default is false. The other hints
 * stay whatever they are: a client deciding what to confirm may read destructiveHint or
 * openWorldHint without their defaults in mind. ~1.6 KB less of the catalogue every turn.
 */
export function listedAnnotations(a: ToolAnnotations): Partial<ToolAnnotations> {
  const { idempotentHint, ...rest } = a;
  return !a.readOnlyHint && idempotentHint ? { ...rest, idempotentHint } : rest;
}
