import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { FileChangeType } from '@agent-lsp/protocol';
import type { Disposable } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import type { FilesChangedEvent, ServerHealthEvent, ServerReadyEvent, Workspace } from '@agent-lsp/workspace';

/** The MCP client's chosen log level (McpLogForwarder owns it). */
export interface McpLevelGate {
  permits(level: LoggingLevel): boolean;
}

/** File news is gathered this long, then told in one message. */
const FILES_DEBOUNCE_MS = 1_000;
/** The same health news twice in a row within this window is told once. */
const REPEAT_WINDOW_MS = 5_000;

const HEALTH_LEVEL: Record<ServerHealthEvent['state'], LoggingLevel> = {
  crashed: 'error',
  restarting: 'warning',
  recovered: 'info',
  gave_up: 'critical',
};

const CHANGE_NAMES: Record<number, string> = { [FileChangeType.Created]: 'created', [FileChangeType.Changed]: 'changed', [FileChangeType.Deleted]: 'deleted' };

/**
 * What agent-lsp tells the agent without being asked, as MCP logging messages
 * (`notifications/message`, logger `agent-lsp`, `data` a JSON object with a `type`): workspace
 * ready, server health, files the agent has open changed outside agent-lsp, and files it has open
 * written by another client of the same broker. Messages below the level the client set
 * (logging/setLevel or set_log_level, per MCP server and so per session) are not sent. See
 * docs/notifications.md.
 */
export class AgentNotifications implements Disposable {
  private readonly listeners: Disposable[];
  /** The last health news told per server. */
  private readonly lastHealth = new Map<string, { key: string; at: number }>();
  private readonly pendingFiles = new Map<'outside' | 'peer', Map<string, string>>();
  private filesTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly mcp: McpServer,
    private readonly workspace: Workspace,
    private readonly logger: Logger,
    private readonly levels: McpLevelGate,
  ) {
    const events = workspace.events;
    this.listeners = [
      events.onServerReady((e) => this.ready(e)),
      events.onServerHealth((e) => this.health(e)),
      events.onFilesChanged((e) => this.filesChanged(e)),
    ];
  }

  private ready(e: ServerReadyEvent): void {
    this.send('info', {
      type: 'workspace_ready',
      server: e.server.id,
      languages: e.server.languageIds,
      mode: e.mode,
      elapsed_ms: e.elapsedMs,
      ...(e.pid !== undefined ? { pid: e.pid } : {}),
      message: `${e.server.displayName} is ready (${(e.elapsedMs / 1000).toFixed(1)} s${e.mode === 'broker' ? ', shared broker' : ''}): answers are complete.`,
    });
  }

  private health(e: ServerHealthEvent): void {
    // The same news twice in a row (two sources of one crash) is told once; a second crash is news.
    const key = `${e.state}:${e.pid ?? ''}:${e.reason ?? ''}`;
    const now = Date.now();
    const last = this.lastHealth.get(e.server.id);
    if (last?.key === key && last.at > now - REPEAT_WINDOW_MS) return;
    this.lastHealth.set(e.server.id, { key, at: now });
    const name = e.server.displayName;
    const message = {
      crashed: `${name} crashed${e.reason ? `: ${e.reason}` : ''}.`,
      restarting: `${name} is being restarted.`,
      recovered: `${name} is running again${e.pid !== undefined ? ` (pid ${e.pid})` : ''}; documents are re-opened and readiness follows.`,
      gave_up: `${name} is not restarted any more${e.reason ? ` (${e.reason})` : ''}: check \`agent-lsp doctor\`, then call restart_lsp_server.`,
    }[e.state];
    this.send(HEALTH_LEVEL[e.state], {
      type: `server_${e.state}`,
      server: e.server.id,
      mode: e.mode,
      ...(e.pid !== undefined ? { pid: e.pid } : {}),
      ...(e.reason !== undefined ? { reason: e.reason } : {}),
      message,
    });
  }

  /** Outside changes and other clients' writes to files the agent has open (has read) are news. */
  private filesChanged(e: FilesChangedEvent): void {
    if (e.origin === 'self') return;
    const relevant = e.changes.filter((c) => e.openUris.has(c.uri));
    if (relevant.length === 0 || this.disposed) return;
    let pending = this.pendingFiles.get(e.origin);
    if (!pending) this.pendingFiles.set(e.origin, (pending = new Map<string, string>()));
    for (const c of relevant) pending.set(c.uri, CHANGE_NAMES[c.type] ?? 'changed');
    this.filesTimer ??= setTimeout(() => this.flushFiles(), FILES_DEBOUNCE_MS);
  }

  private flushFiles(): void {
    this.filesTimer = undefined;
    for (const [origin, files] of this.pendingFiles) {
      const list = [...files].map(([uri, change]) => ({ file: this.workspace.displayUri(uri), change }));
      if (list.length === 0) continue;
      const names = list.map((f) => f.file).join(', ');
      this.send('notice', origin === 'outside'
        ? { type: 'files_changed_outside', files: list, message: `Changed outside agent-lsp since you read them: ${names}. Read them again before editing; agent-lsp's answers already use the new text.` }
        : { type: 'files_changed_by_other_client', files: list, message: `Another agent or editor sharing this language server wrote ${names}, which you have open. Read them again before editing.` });
    }
    this.pendingFiles.clear();
  }

  private send(level: LoggingLevel, data: Record<string, unknown> & { type: string }): void {
    if (this.disposed || !this.levels.permits(level)) return;
    this.mcp.server.notification({ method: 'notifications/message', params: { level, logger: 'agent-lsp', data } }).catch((err: Error) => this.logger.debug(`notification ${data.type} not sent: ${err.message}`));
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.filesTimer);
    for (const l of this.listeners) l.dispose();
  }
}

