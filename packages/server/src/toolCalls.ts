import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getParseErrorMessage } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { CallToolRequestSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { startupMark } from '@agent-lsp/protocol';
import { checkArgumentNames, inferredRootOutput, type AnyToolDefinition } from '@agent-lsp/tools';
import { phaseWarningOutput } from './phaseGate.js';

type CallExtra = Parameters<Parameters<McpServer['server']['setRequestHandler']>[1]>[1];

/** Runs a call whose arguments passed the tool's input schema. */
export type ToolCallRunner = (def: AnyToolDefinition, args: Record<string, unknown>, extra: CallExtra) => Promise<CallToolResult>;

/** A tool's zod objects, made on its first call. */
interface ToolValidators {
  input: z.ZodObject;
  output: z.ZodObject;
}

/**
 * Answers tools/call as McpServer's own handler does (the same input and output validation, the
 * same error results and messages), but with each tool's zod objects made on its first call:
 * McpServer.registerTool makes every tool's at start, and a front is called with a few tools.
 * `tools` maps every callable name (aliases too) to its definition.
 */
export function serveToolCalls(mcp: McpServer, tools: ReadonlyMap<string, AnyToolDefinition>, run: ToolCallRunner): void {
  const validators = new Map<AnyToolDefinition, ToolValidators>();
  const validatorsOf = (def: AnyToolDefinition): ToolValidators => {
    let v = validators.get(def);
    if (!v) {
      // What runTool and the phase gate may add to any result is part of every output schema.
      v = { input: z.object(def.input), output: z.object({ ...inferredRootOutput, ...phaseWarningOutput, ...def.output }) };
      validators.set(def, v);
    }
    return v;
  };
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    startupMark(`${name} call received`);
    try {
      const def = tools.get(name);
      if (!def) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
      const { input, output } = validatorsOf(def);
      // zod drops names it does not know: a misspelt optional argument would change the answer unsaid.
      const named = checkArgumentNames(name, def, request.params.arguments ?? {});
      if (named.error !== undefined) throw new McpError(ErrorCode.InvalidParams, named.error);
      const parsed = await input.safeParseAsync(named.args);
      if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Input validation error: Invalid arguments for tool ${name}: ${getParseErrorMessage(parsed.error)}`);
      startupMark(`${name} arguments checked`);
      const result = await run(def, parsed.data, extra);
      startupMark(`${name} result made`);
      // A task request's answer is not the tool's result (the SDK does not check it either).
      if (request.params.task || result.isError) return result;
      if (!result.structuredContent) throw new McpError(ErrorCode.InvalidParams, `Output validation error: Tool ${name} has an output schema but no structured content was provided`);
      const checked = await output.safeParseAsync(result.structuredContent);
      if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Output validation error: Invalid structured content for tool ${name}: ${getParseErrorMessage(checked.error)}`);
      startupMark(`${name} output checked`);
      return result;
    } catch (error) {
      if (error instanceof McpError && error.code === (ErrorCode.UrlElicitationRequired as number)) throw error;
      return { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true };
    }
  });
}
