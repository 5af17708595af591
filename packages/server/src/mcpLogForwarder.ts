import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { LogEntry, Logger, LogLevel } from '@agent-lsp/lsp';

/** MCP's levels, least severe first. */
export const MCP_LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** Our least severe level an MCP threshold lets through (none: our most severe, error, is below it). */
const THRESHOLD: Record<LoggingLevel, LogLevel | undefined> = {
  debug: 'debug',
  info: 'info',
  notice: 'warn',
  warning: 'warn',
  error: 'error',
  critical: undefined,
  alert: undefined,
  emergency: undefined,
};

const AS_MCP: Record<LogLevel, LoggingLevel> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };

/**
 * Sends this front's log entries to the MCP client as `notifications/message`, from the level the
 * client chose (`logging/setLevel`, or the set_log_level tool) up; nothing until it chooses one.
 * stderr logging is unaffected.
 */
export class McpLogForwarder {
  private level: LoggingLevel | undefined;
  private readonly removal: { dispose(): void } | undefined;

  constructor(
    private readonly mcp: McpServer,
    logger: Logger,
  ) {
    this.removal = logger.tap?.({
      level: () => (this.level === undefined ? undefined : THRESHOLD[this.level]),
      write: (entry) => this.send(entry),
    });
    // Replaces the SDK's handler, which only filters the SDK's own sendLoggingMessage.
    mcp.server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.setLevel(request.params.level);
      return Promise.resolve({});
    });
  }

  setLevel(level: LoggingLevel): void {
    this.level = level;
  }

  /**
   * Whether a message at this level reaches the client. Before the client chooses a level, the
   * structured notifications (AgentNotifications) all go out; this front's own log entries wait
   * for the choice (see the tap above).
   */
  permits(level: LoggingLevel): boolean {
    return this.level === undefined || MCP_LOG_LEVELS.indexOf(level) >= MCP_LOG_LEVELS.indexOf(this.level);
  }

  get currentLevel(): LoggingLevel | undefined {
    return this.level;
  }

  /**
   * A structured log message (its `data` an object), sent only once the client chose a level that
   * lets it through: the speculative sessions' lifecycle events, for a client that asked for debug.
   */
  sendData(level: LoggingLevel, logger: string, data: object): void {
    if (this.level === undefined || !this.permits(level) || !this.mcp.isConnected()) return;
    this.mcp.server.notification({ method: 'notifications/message', params: { level, logger, data } }).catch(() => undefined);
  }

  private send(entry: LogEntry): void {
    if (!this.mcp.isConnected()) return;
    const params = { level: AS_MCP[entry.level], ...(entry.scope ? { logger: entry.scope } : {}), data: entry.message };
    // A client that went away must not turn logging into an error (nor into more logging).
    this.mcp.server.notification({ method: 'notifications/message', params }).catch(() => undefined);
  }

  dispose(): void {
    this.removal?.dispose();
  }
}
