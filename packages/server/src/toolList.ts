import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { inferredRootOutput, type AnyToolDefinition } from '@agent-lsp/tools';
import { phaseWarningOutput } from './phaseGate.js';

/**
 * JSON Schema without what says nothing to a model but costs every turn: `$schema`, and the
 * safe-integer bounds zod writes on every `.int()`.
 */
export function compactSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    out[key] = compactSchema(value);
  }
  return out;
}

function jsonSchema(shape: z.ZodRawShape, io: 'input' | 'output'): Tool['inputSchema'] {
  return compactSchema(z.toJSONSchema(z.object(shape), { io, target: 'draft-7', unrepresentable: 'any' })) as Tool['inputSchema'];
}

/**
 * Answers tools/list with compact schemas (the catalogue is sent into the agent's context on every
 * turn; see test/e2e/catalogSize.test.ts): no `execution` (MCP's default, taskSupport forbidden, is
 * ours) and no annotation title (the tool has one). Calls still go through the SDK's own handler.
 */
export function serveCompactToolList(mcp: McpServer, defs: readonly AnyToolDefinition[]): void {
  const tools: Tool[] = defs.map((def) => ({
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: jsonSchema(def.input, 'input'),
    // What runTool and the phase gate may add to any result must pass a client's output validation.
    outputSchema: jsonSchema({ ...inferredRootOutput, ...phaseWarningOutput, ...def.output }, 'output'),
    annotations: { ...def.annotations },
  }));
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
}
