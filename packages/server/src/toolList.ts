import { readFileSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { startupMark } from '@agent-lsp/protocol';
import { inferredRootOutput, listByDescription, type AnyToolDefinition } from '@agent-lsp/tools';
import { listedAnnotations } from './listedAnnotations.js';
import { outlineOutputSchema } from './outputOutline.js';
import { phaseWarningOutput } from './phaseGate.js';

/**
 * JSON Schema without what says nothing to a model but costs every turn: `$schema`, the
 * safe-integer bounds zod writes on every `.int()`, and the bounds that only exclude what no caller
 * means (a negative count, an empty name: `minimum: 0`, `minLength: 1`; the argument is still
 * checked against them, with a message that says so). An integer's `exclusiveMinimum: n` (zod's
 * `.positive()`) is written as the equal and shorter `minimum: n + 1`.
 */
export function compactSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactSchema);
  if (node === null || typeof node !== 'object') return node;
  const integer = (node as Record<string, unknown>)['type'] === 'integer';
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    if ((key === 'minimum' && value === 0) || (key === 'minLength' && value === 1)) continue;
    if (key === 'exclusiveMinimum' && integer && typeof value === 'number' && Number.isInteger(value)) {
      if (value !== -1) out['minimum'] = value + 1;
      continue;
    }
    out[key] = compactSchema(value);
  }
  return out;
}

function jsonSchema(shape: z.ZodRawShape, io: 'input' | 'output'): Tool['inputSchema'] {
  return compactSchema(z.toJSONSchema(z.object(shape), { io, target: 'draft-7', unrepresentable: 'any', override: listByDescription })) as Tool['inputSchema'];
}

/** A tool's two JSON Schemas, as tools/list sends them (the output one outlined: outputOutline.ts). */
export interface ToolSchemas {
  inputSchema: Tool['inputSchema'];
  outputSchema: Tool['outputSchema'];
}

/** A tool's full output schema, every result's shape as our side checks it (toolCalls.ts) before it is outlined. */
export function fullOutputSchema(def: AnyToolDefinition): Record<string, unknown> {
  // What runTool and the phase gate may add to any result is part of it.
  return jsonSchema({ ...inferredRootOutput, ...phaseWarningOutput, ...def.output }, 'output');
}

/** The schemas of these tools, by name (scripts/bundle.mjs computes them once, at build time). */
export function toolSchemas(defs: readonly AnyToolDefinition[]): Record<string, ToolSchemas> {
  const out: Record<string, ToolSchemas> = {};
  for (const def of defs) {
    out[def.name] = {
      inputSchema: jsonSchema(def.input, 'input'),
      outputSchema: outlineOutputSchema(fullOutputSchema(def)) as Tool['outputSchema'],
    };
  }
  return out;
}

/**
 * The bundle (scripts/bundle.mjs) replaces this identifier with the name of a file beside it that
 * holds the schemas, as JSON, of the very tool definitions it bundles: converting ~60 zod schemas
 * was the largest part of a fresh front's start. Read when a list is built (~180 KB) rather than
 * kept: not in the bundle's source, nor parsed in the heap of every front and broker.
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

/** Schemas converted from the definitions (no prebuilt file: unbundled), by tool name, for the process. */
const convertedSchemas = new Map<string, ToolSchemas>();
/**
 * The lists built, by tool set, shared by every MCP server of the process: they are immutable, and
 * an HTTP server's sessions each ask for one (reading and parsing ~180 KB, or converting every zod
 * schema unbundled, per session blocked the loop in a burst of sessions). Dropped a while after
 * their last use: a stdio front asks once and does not keep the parsed schemas in its heap.
 */
const builtLists = new Map<string, { tools: Tool[]; expiry: NodeJS.Timeout }>();
const BUILT_LIST_KEPT_MS = 60_000;

function buildToolList(defs: readonly AnyToolDefinition[]): Tool[] {
  const prebuilt = prebuiltSchemas();
  const missing = defs.filter((def) => !prebuilt?.[def.name] && !convertedSchemas.has(def.name));
  // Converted schemas are kept (they cost a conversion); read ones are read again once the list is dropped.
  for (const [name, schemas] of Object.entries(toolSchemas(missing))) convertedSchemas.set(name, schemas);
  return defs.map((def) => {
    const schemas = prebuilt?.[def.name] ?? convertedSchemas.get(def.name)!;
    return {
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema: schemas.inputSchema,
      outputSchema: schemas.outputSchema,
      annotations: listedAnnotations(def.annotations),
    };
  });
}

/** The list of these tools: the one already built for the same tools, else a new one. */
export function compactToolList(defs: readonly AnyToolDefinition[]): Tool[] {
  const key = defs.map((def) => def.name).join(',');
  const built = builtLists.get(key);
  if (built) {
    built.expiry.refresh();
    return built.tools;
  }
  const tools = buildToolList(defs);
  const expiry = setTimeout(() => builtLists.delete(key), BUILT_LIST_KEPT_MS);
  expiry.unref();
  builtLists.set(key, { tools, expiry });
  return tools;
}

/**
 * Answers tools/list with compact schemas (the catalogue is sent into the agent's context on every
 * turn; see test/e2e/catalogSize.test.ts): no `execution` (MCP's default, taskSupport forbidden, is
 * ours) and no annotation title (the tool has one). Calls are answered by serveToolCalls (toolCalls.ts).
 * The list is built at the first tools/list, not at start.
 */
export function serveCompactToolList(mcp: McpServer, defs: readonly AnyToolDefinition[]): void {
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = compactToolList(defs);
    startupMark('tools/list served');
    return { tools };
  });
}
