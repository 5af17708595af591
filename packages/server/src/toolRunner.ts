import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UserError, WireError } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import type { AnyToolDefinition, ProgressReport, ToolContext } from '@agent-lsp/tools';
import type { Workspace } from '@agent-lsp/workspace';

export interface ToolCallEnvironment {
  signal: AbortSignal;
  progressToken: string | number | undefined;
  sendProgress(params: { progressToken: string | number; progress: number; total?: number; message?: string }): Promise<void>;
}

const PROGRESS_MIN_INTERVAL_MS = 200;

/** Runs one tool handler and turns its result or error into an MCP tool result. */
export async function runTool(
  def: AnyToolDefinition,
  args: Record<string, unknown>,
  env: ToolCallEnvironment,
  workspace: Workspace,
  logger: Logger,
): Promise<CallToolResult> {
  let step = 0;
  let lastSent = 0;
  let lastMessage = '';
  const ctx: ToolContext = {
    workspace,
    signal: env.signal,
    logger,
    reportProgress(report: ProgressReport) {
      const token = env.progressToken;
      if (token === undefined) return;
      const now = Date.now();
      const message = report.percentage !== undefined ? `${report.message} (${Math.round(report.percentage)}%)` : report.message;
      if (message === lastMessage && now - lastSent < 5000) return;
      if (now - lastSent < PROGRESS_MIN_INTERVAL_MS && message === lastMessage) return;
      lastSent = now;
      lastMessage = message;
      // progress must increase with every notification; the message carries the server's own figure.
      env.sendProgress({ progressToken: token, progress: ++step, message }).catch(() => undefined);
    },
  };
  try {
    const result = await def.handler(args, ctx);
    return { content: [{ type: 'text', text: def.text(result) }], structuredContent: result };
  } catch (err) {
    return { isError: true, content: [{ type: 'text', text: errorMessage(def.name, err, logger) }] };
  }
}

function errorMessage(tool: string, err: unknown, logger: Logger): string {
  if (err instanceof UserError || err instanceof WireError) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  logger.error(`${tool} failed: ${err instanceof Error && err.stack ? err.stack : message}`);
  return `${tool} failed unexpectedly: ${message}. This is a bug in agent-lsp if it persists; the log on stderr has details.`;
}
