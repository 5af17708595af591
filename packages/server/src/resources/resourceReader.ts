import { z } from 'zod';
import { TOOL_CATALOG, type AnyToolDefinition, type ToolContext } from '@agent-lsp/tools';
import type { Logger } from '@agent-lsp/lsp';
import type { AgentLedger } from '@agent-lsp/session';
import type { Workspace } from '@agent-lsp/workspace';
import { runTool } from '../toolRunner.js';
import { ResourceUriError, type ParsedResource } from './resourceUris.js';

/** Why a resource could not be read (the tool's own message): becomes an MCP error. */
export class ResourceReadError extends Error {}

/**
 * Reads a resource by running the tool that shares its shape (get_diagnostics, inspect_symbol,
 * get_completions) through the same runner as tools/call: the same freshness, readiness wait,
 * settling and audit. The answer is the tool's structured content.
 */
export class ResourceReader {
  constructor(
    private readonly workspace: Workspace,
    private readonly ledger: AgentLedger,
    private readonly logger: Logger,
  ) {}

  async read(resource: ParsedResource, signal: AbortSignal): Promise<Record<string, unknown>> {
    const def = toolOf(resource);
    const args = parseArgs(def, resource.args);
    const result = await runTool(
      def,
      args,
      { signal, progressToken: undefined, sendProgress: () => Promise.resolve() },
      this.workspace,
      this.ledger,
      this.logger.child(`resource:${def.name}`),
    );
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    if (result.isError) throw new ResourceReadError(text);
    return result.structuredContent ?? {};
  }

  /**
   * The same handler in the same section, but not an agent's call: no audit line (subscriptions
   * re-read diagnostics on every file event). Errors are thrown as they are.
   */
  async readInBackground(resource: ParsedResource, signal: AbortSignal): Promise<Record<string, unknown>> {
    const def = toolOf(resource);
    const args = parseArgs(def, resource.args);
    const ctx: ToolContext = {
      workspace: this.workspace,
      ledger: this.ledger,
      call: this.ledger.startCall(def.name),
      signal,
      logger: this.logger.child(`subscription:${def.name}`),
      reportProgress: () => undefined,
    };
    return this.workspace.runCall({ name: def.name, concurrency: def.concurrency ?? 'shared', readOnly: def.annotations.readOnlyHint }, () => def.handler(args, ctx));
  }
}

function toolOf(resource: ParsedResource): AnyToolDefinition {
  const def = TOOL_CATALOG.find((t) => t.name === resource.tool);
  if (!def) throw new ResourceReadError(`agent-lsp has no ${resource.tool} tool to read this resource with.`);
  return def;
}

function parseArgs(def: AnyToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  const parsed = z.object(def.input).safeParse(args);
  if (!parsed.success) throw new ResourceUriError(`invalid resource arguments for ${def.name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
