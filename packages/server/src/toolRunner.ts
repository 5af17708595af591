import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startupMark, toolAnswered, UserError, WireError } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import { describeRecovery, fileSystemUserError, SessionError, type AgentLedger, type LeftoverRecovery } from '@agent-lsp/session';
import { inferredRootText, type AnyToolDefinition, type ProgressReport, type RunnerConfig, type ToolContext } from '@agent-lsp/tools';
import type { Workspace } from '@agent-lsp/workspace';
import type { SkillPhaseTracker } from '@agent-lsp/skills';
import { describeWork, progressHeartbeat } from './progressHeartbeat.js';

export interface ToolCallEnvironment {
  signal: AbortSignal;
  progressToken: string | number | undefined;
  sendProgress(params: { progressToken: string | number; progress: number; total?: number; message?: string }): Promise<void>;
  setLogLevel?: ToolContext['setLogLevel'];
  /** The skill phases of the server the call came through (activate_skill and friends use them). */
  skillPhases?: SkillPhaseTracker;
  /** The config file's build/test commands (ToolContext.runners). */
  runners?: RunnerConfig | undefined;
}

const PROGRESS_MIN_INTERVAL_MS = 200;

/**
 * Runs one tool handler and turns its result or error into an MCP tool result. Every call lands in
 * the audit log; a transaction a dead front left half done in the workspace is rolled back before
 * any answer (also right after start_lsp opened that workspace).
 */
export async function runTool(
  def: AnyToolDefinition,
  args: Record<string, unknown>,
  env: ToolCallEnvironment,
  workspace: Workspace,
  ledger: AgentLedger,
  logger: Logger,
): Promise<CallToolResult> {
  const call = ledger.startCall(def.name);
  let step = 0;
  let lastSent = 0;
  let lastMessage = '';
  const startedAt = Date.now();
  const token = env.progressToken;
  const send = (message: string) => {
    // progress must increase with every notification; the message carries the server's own figure.
    if (token !== undefined) env.sendProgress({ progressToken: token, progress: ++step, message }).catch(() => undefined);
  };
  // Long work is never silent: what it waits on, at least every HEARTBEAT_MS.
  const heartbeat = token === undefined ? undefined : progressHeartbeat(send, () => describeWork(def.name, startedAt, lastMessage || undefined, () => workspace.liveConnections()));
  const ctx: ToolContext = {
    workspace,
    ledger,
    call,
    signal: env.signal,
    logger,
    ...(env.setLogLevel ? { setLogLevel: env.setLogLevel } : {}),
    ...(env.skillPhases ? { skillPhases: env.skillPhases } : {}),
    ...(env.runners ? { runners: env.runners } : {}),
    reportProgress(report: ProgressReport) {
      if (token === undefined) return;
      const now = Date.now();
      const message = report.percentage !== undefined ? `${report.message} (${Math.round(report.percentage)}%)` : report.message;
      if (message === lastMessage && now - lastSent < 5000) return;
      if (now - lastSent < PROGRESS_MIN_INTERVAL_MS && message === lastMessage) return;
      lastSent = now;
      lastMessage = message;
      heartbeat?.sent();
      send(message);
    },
  };
  logger.debug('called');
  const recoveries: (LeftoverRecovery | undefined)[] = [];
  // The agent hears what recovery did to its workspace, above all which files it left alone.
  const recoveryLines = () => recoveries.flatMap((r) => (r ? [describeRecovery(r, (p) => workspace.display(p))] : []));
  try {
    recoveries.push(await ledger.transactions.recoverWorkspace(env.signal));
    startupMark(`${def.name} recovery checked`);
    const result = await workspace.prefetch.observe(
      () => call.noteServedFromCache(),
      () => workspace.runCall({ name: def.name, concurrency: def.concurrency ?? 'shared', readOnly: def.annotations.readOnlyHint }, () => {
        startupMark(`${def.name} handler started`);
        return def.handler(args, ctx);
      }),
    );
    startupMark(`${def.name} handler returned`);
    recoveries.push(await ledger.transactions.recoverWorkspace(env.signal));
    ledger.finishCall(call, args, 'ok');
    toolAnswered(def.name);
    startupMark(`${def.name} recovery checked after`);
    const text = [def.text(result), ...recoveryLines()].join('\n');
    startupMark(`${def.name} text made`);
    const inferred = workspace.inferredRoot;
    if (inferred === undefined) return { content: [{ type: 'text', text }], structuredContent: result };
    return {
      content: [{ type: 'text', text: `${text}\n${inferredRootText(inferred)}` }],
      // A result's own workspace_root (a session's) is more precise than the workspace's.
      structuredContent: { workspace_root: inferred, root_inferred: true, ...result },
    };
  } catch (err) {
    const message = errorMessage(def.name, err, logger);
    ledger.finishCall(call, args, env.signal.aborted ? 'cancelled' : 'error', message);
    const inferred = workspace.inferredRoot;
    const said = [message, ...recoveryLines()].join('\n');
    const text = inferred === undefined ? said : `${said}\n${inferredRootText(inferred)}`;
    return { isError: true, content: [{ type: 'text', text }] };
  } finally {
    heartbeat?.stop();
  }
}

function errorMessage(tool: string, err: unknown, logger: Logger): string {
  if (err instanceof UserError || err instanceof WireError || err instanceof SessionError) return err.message;
  const fsError = fileSystemUserError(err);
  if (fsError) return fsError.message;
  const message = err instanceof Error ? err.message : String(err);
  logger.error(`${tool} failed: ${err instanceof Error && err.stack ? err.stack : message}`);
  return `${tool} failed unexpectedly: ${message}. This is a bug in agent-lsp if it persists; the log on stderr has details.`;
}
