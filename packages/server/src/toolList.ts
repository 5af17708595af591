import { readFileSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { startupMark } from '@agent-lsp/protocol';
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

/** A tool's two JSON Schemas, as tools/list sends them. */
export interface ToolSchemas {
  inputSchema: Tool['inputSchema'];
  outputSchema: Tool['outputSchema'];
}

/** The schemas of these tools, by name (scripts/bundle.mjs computes them once, at build time). */
export function toolSchemas(defs: readonly AnyToolDefinition[]): Record<string, ToolSchemas> {
  const out: Record<string, ToolSchemas> = {};
  for (const def of defs) {
    out[def.name] = {
      inputSchema: jsonSchema(def.input, 'input'),
      // What runTool and the phase gate may add to any result must pass a client's output validation.
      outputSchema: jsonSchema({ ...inferredRootOutput, ...phaseWarningOutput, ...def.output }, 'output'),
    };
  }
  return out;
}

/**
 * The bundle (scripts/bundle.mjs) replaces this identifier with the name of a file beside it that
 * holds the schemas, as JSON, of the very tool definitions it bundles: converting ~60 zod schemas
 * was the largest part of a fresh front's start. Read at each tools/list (once a session, ~180 KB)
 * rather than kept: not in the bundle's source, nor parsed in the heap of every front and broker.
 * Unbundled, it does not exist and the schemas are converted on the first tools/list.
 */
declare const __AGENT_LSP_TOOL_SCHEMAS__: string | undefined;
/** The bundle's own URL: a parameter of the function the bundle is (scripts/bundle.mjs). */
declare const __agentLspBundleUrl: string;

function prebuiltSchemas(): Record<string, ToolSchemas> | undefined {
  if (typeof __AGENT_LSP_TOOL_SCHEMAS__ === 'undefined') return undefined;
  try {
    return JSON.parse(readFileSync(new URL(__AGENT_LSP_TOOL_SCHEMAS__, __agentLspBundleUrl), 'utf8')) as Record<string, ToolSchemas>;
  } catch {
    // gone or damaged: converted from the definitions, as unbundled
    return undefined;
  }
}

/**
 * Answers tools/list with compact schemas (the catalogue is sent into the agent's context on every
 * turn; see test/e2e/catalogSize.test.ts): no `execution` (MCP's default, taskSupport forbidden, is
 * ours) and no annotation title (the tool has one). Calls are answered by serveToolCalls (toolCalls.ts).
 * The list is built at each tools/list, not at start.
 */
export function serveCompactToolList(mcp: McpServer, defs: readonly AnyToolDefinition[]): void {
  let converted: Record<string, ToolSchemas> | undefined;
  const build = (): Tool[] => {
    const prebuilt = prebuiltSchemas();
    const missing = prebuilt ? defs.filter((def) => !prebuilt[def.name]) : defs;
    // Converted schemas are kept (they cost a conversion); read ones are read again next time.
    if (missing.length) converted ??= toolSchemas(defs);
    const schemas = { ...prebuilt, ...converted };
    return defs.map((def) => ({
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema: schemas[def.name]!.inputSchema,
      outputSchema: schemas[def.name]!.outputSchema,
      annotations: { ...def.annotations },
    }));
  };
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = build();
    startupMark('tools/list served');
    return { tools };
  });
}
