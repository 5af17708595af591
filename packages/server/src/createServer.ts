import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';
import type { Logger, ServerRegistry } from '@agent-lsp/lsp';
import { join } from 'node:path';
import { AgentLedger, sessionEventLevel, workspaceStateDir, type AgentLedgerOptions } from '@agent-lsp/session';
import { builtinSkills, SkillPhaseTracker, type Skill } from '@agent-lsp/skills';
import { selectTools, skillPhaseRules, type RunnerConfig } from '@agent-lsp/tools';
import { Workspace, type ConnectionFactory } from '@agent-lsp/workspace';
import { LazySchemaValidator } from './lazySchemaValidator.js';
import { McpLogForwarder } from './mcpLogForwarder.js';
import { phaseGate } from './phaseGate.js';
import { servePrompts } from './prompts.js';
import { serveCompactToolList } from './toolList.js';
import { serveToolCalls } from './toolCalls.js';
import { runTool } from './toolRunner.js';
import { serveResources } from './resources/resourceHandlers.js';
import { AgentNotifications } from './notifications/agentNotifications.js';

export { AGENT_LSP_VERSION } from '@agent-lsp/protocol';
import { AGENT_LSP_VERSION } from '@agent-lsp/protocol';

export interface AgentLspServerOptions {
  registry: ServerRegistry;
  logger: Logger;
  /** Tool groups to offer (all when empty). */
  toolGroups?: readonly string[];
  connect?: ConnectionFactory;
  /** The workspace root fixed at startup (`serve --root`, AGENT_LSP_ROOT). */
  root?: string;
  /** Speculative prefetch of read-only queries (`--prefetch`, AGENT_LSP_PREFETCH); on when absent. */
  prefetch?: boolean;
  /** State home, audit log path, and (for tests) clock, ids and file writer. */
  ledger?: Omit<AgentLedgerOptions, 'workspace' | 'logger'>;
  /** Build and test commands from the config file's `runners` section. */
  runners?: RunnerConfig;
  /**
   * The workflow skills served as prompts; the built-in ones (read from their files) when absent.
   * The start-up snapshot's warm-up passes none, so that its blob keeps no copy of the files.
   */
  skills?: readonly Skill[];
  /** A result's text: compact text (default), or its structured content as JSON (`--output-format`). */
  outputFormat?: 'text' | 'json';
}

export interface AgentLspServer {
  mcp: McpServer;
  workspace: Workspace;
  ledger: AgentLedger;
  /** Stops every language server this front started. */
  close(): Promise<void>;
}

/** One MCP server with its own workspace: nothing is shared between two of them. */
export function createAgentLspServer(options: AgentLspServerOptions): AgentLspServer {
  const mcp = new McpServer(
    { name: 'agent-lsp', version: AGENT_LSP_VERSION },
    {
      capabilities: { tools: {}, logging: {} },
      jsonSchemaValidator: new LazySchemaValidator(),
      instructions:
        'agent-lsp answers code questions with real language servers. Call start_lsp with the project root first. File paths are root-relative or absolute. Positions are 1-based lines and 1-based character columns; position_pattern (a snippet with @@ at the cursor) works wherever a position does. Answers wait for indexing so they are complete (wait_for_ready: false answers at once, with ready: false); lists are paged (limit, offset). docs/tools.md explains every tool at length. Workflows (rename, safe edit, verify...) are MCP prompts: see prompts/list.',
    },
  );
  // The servers' workspace/applyEdit requests land in the transaction of the call that caused them.
  const onApplyEdit = (params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> => ledger.transactions.handleServerEdit(params);
  const workspace: Workspace = new Workspace({
    registry: options.registry,
    logger: options.logger,
    onApplyEdit,
    ...(options.connect ? { connect: options.connect } : {}),
    ...(options.root !== undefined ? { root: options.root } : {}),
    ...(options.prefetch !== undefined ? { prefetch: options.prefetch } : {}),
    prefetchStateFile: (root) => join(workspaceStateDir(ledger.home, root), 'prefetch-transitions.json'),
    clientRoots: async () => {
      if (!mcp.server.getClientCapabilities()?.roots) return [];
      const { roots } = await mcp.server.listRoots(undefined, { timeout: 5000 });
      return roots.map((r) => uriToPath(r.uri)).filter((p): p is string => p !== undefined);
    },
  });
  const ledger: AgentLedger = new AgentLedger({ ...options.ledger, workspace, logger: options.logger });

  const logForwarder = new McpLogForwarder(mcp, options.logger);
  const sessionLog = options.logger.child('session');
  const sessionEvents = ledger.simulations.events.on((event) => {
    sessionLog.debug(JSON.stringify(event));
    logForwarder.sendData(sessionEventLevel(event), 'session', event);
  });
  const defs = selectTools(options.toolGroups);
  // Per server instance: two agents (two fronts, two HTTP sessions) never share skill phases.
  const skillPhases = new SkillPhaseTracker(skillPhaseRules(selectTools()));
  const inPhase = phaseGate(skillPhases, ledger);
  // Aliases run the same tool under another name; serveCompactToolList leaves them out of tools/list.
  const callable = new Map(defs.flatMap((def) => [def.name, ...(def.aliases ?? [])].map((name) => [name, def] as const)));
  const asOutput = options.outputFormat === 'json' ? structuredAsText : (result: CallToolResult) => result;
  serveToolCalls(mcp, callable, async (def, args, extra) =>
    asOutput(await inPhase(def.name, args, () =>
      runTool(
        def,
        args,
        {
          signal: extra.signal,
          progressToken: extra._meta?.progressToken,
          sendProgress: (params) => extra.sendNotification({ method: 'notifications/progress', params }),
          setLogLevel: (level) => logForwarder.setLevel(level),
          skillPhases,
          runners: options.runners,
        },
        workspace,
        ledger,
        options.logger.child(def.name),
      ),
    )),
  );

  serveCompactToolList(mcp, defs);
  servePrompts(mcp, () => options.skills ?? builtinSkills());
  const resources = serveResources(mcp, workspace, ledger, options.logger.child('resources'));
  const notifications = new AgentNotifications(mcp, workspace, options.logger.child('notifications'), logForwarder);

  return {
    mcp,
    workspace,
    ledger,
    async close() {
      sessionEvents.dispose();
      logForwarder.dispose();
      ledger.simulations.dispose();
      resources.dispose();
      notifications.dispose();
      await workspace.stopAll();
      await mcp.close().catch(() => undefined);
    },
  };
}

/** A result whose text is its structured content as JSON; errors keep their message. */
function structuredAsText(result: CallToolResult): CallToolResult {
  if (result.isError || result.structuredContent === undefined) return result;
  return { ...result, content: [{ type: 'text', text: JSON.stringify(result.structuredContent) }] };
}
