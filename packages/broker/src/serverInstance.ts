import { ErrorCodes, WireError, type BrokerProgress, type BrokerRestartServerResult, type BrokerServerStateParams, type BrokerState } from '@agent-lsp/protocol';
import { RestartBudget, ServerUnresponsiveError, startDirectConnection, type LspConnection, type Logger, type ResolvedServer, type ServerDefinition } from '@agent-lsp/lsp';
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { BrokerClient } from './brokerClient.js';
import type { DiagnosticsBridge } from './diagnosticsBridge.js';
import { HealthProbe, probeTimingFromEnv } from './healthProbe.js';
import { isClientToken, ownToken } from './progressTokens.js';
import type { SharedDocuments } from './sharedDocuments.js';

/** Client requests during which a server may ask the client to apply an edit. */
const EDIT_CAUSING_METHODS = ['workspace/executeCommand', 'codeAction/resolve', 'textDocument/codeAction', 'textDocument/rename', 'workspace/willRenameFiles', 'workspace/willCreateFiles', 'workspace/willDeleteFiles'];

export interface ServerInstanceOptions {
  server: ServerDefinition;
  /** Resolved once by the entry point (the broker key depends on it): every restart runs the same command. */
  resolved?: ResolvedServer;
  root: string;
  logger: Logger;
  clients: () => Iterable<BrokerClient>;
  documents: SharedDocuments;
  bridge: DiagnosticsBridge;
  /** State, readiness or restart count changed. */
  onStatusChanged(): void;
  /** The server cannot be (re)started any more: the broker should stop. */
  onGiveUp(reason: string): void;
  /** The server crashed, is restarting, recovered, or was given up (clients' agents hear of it). */
  onHealth?(event: BrokerServerStateParams): void;
  /** The server stopped answering: what waits on it should fail with `error` now. */
  onUnresponsive?(error: ServerUnresponsiveError): void;
  /** A server started, and each time its dynamic registrations changed (file watchers among them). */
  onRegistrations?(conn: LspConnection): void;
}

/**
 * The broker's one language server: started, restarted after a crash within a budget (re-opening
 * the documents clients hold), its notifications fanned out to clients, its registrations passed
 * on, and its workspace/applyEdit requests routed to the client whose request caused them.
 */
export class ServerInstance {
  private conn: LspConnection | undefined;
  private started: Promise<LspConnection> | undefined;
  private stateValue: BrokerState = 'starting';
  private restartCount = 0;
  private readonly budget = new RestartBudget();
  private stopped = false;
  private restarting: Promise<BrokerRestartServerResult> | undefined;
  private readonly health: HealthProbe;

  constructor(private readonly options: ServerInstanceOptions) {
    this.health = new HealthProbe({
      ...probeTimingFromEnv(process.env, options.logger),
      connection: () => this.conn,
      logger: options.logger,
      onChange: (responsive) => {
        const error = responsive ? undefined : this.unresponsive();
        if (error) options.onUnresponsive?.(error);
        options.onStatusChanged();
      },
    });
  }

  /** The running connection, if the server is up. */
  get connection(): LspConnection | undefined {
    return this.conn;
  }

  /** The server's readiness, unless it is running but stopped answering (`unresponsive`). */
  get state(): BrokerState {
    return this.conn && !this.health.responsive ? 'unresponsive' : this.stateValue;
  }

  /** Ready, and answering. */
  get isReady(): boolean {
    return this.conn?.readiness.snapshot().ready === true && this.health.responsive;
  }

  /** What clients are shown while the server is not ready. */
  get progress(): BrokerProgress | undefined {
    if (this.conn && !this.health.responsive) {
      return { title: 'language server unresponsive', message: `pid ${this.conn.pid} did not answer a health probe within ${this.health.timeoutMs / 1000} s` };
    }
    return this.conn?.readiness.snapshot().progress;
  }

  /** Why requests fail at once while the running server answers nothing; undefined while it answers. */
  unresponsive(): ServerUnresponsiveError | undefined {
    const { conn } = this;
    if (!conn || this.health.responsive) return undefined;
    const detail = `pid ${conn.pid} did not answer a health probe within ${this.health.timeoutMs / 1000} s`;
    return new ServerUnresponsiveError(conn.server.displayName, this.options.root, detail);
  }

  get restarts(): number {
    return this.restartCount;
  }

  /** Resolves once the server is initialized (not necessarily indexed). */
  ready(): Promise<LspConnection> {
    return this.started ?? Promise.reject(new Error('broker is not running'));
  }

  start(): void {
    this.health.start();
    this.started = this.launch();
    this.started.catch((err: Error) => {
      this.options.logger.error(`language server failed to start: ${err.message}`);
      this.options.onGiveUp('server failed to start');
    });
  }

  private async launch(): Promise<LspConnection> {
    const { server, resolved, root, logger, documents, bridge } = this.options;
    const conn = await startDirectConnection({
      server,
      ...(resolved ? { resolved } : {}),
      rootDir: root,
      workspaceFolders: [root],
      logger,
      onApplyEdit: (params) => this.routeApplyEdit(params),
      inlineReads: true,
    });
    this.conn = conn;
    this.health.reset();
    documents.resyncAll();
    const onReadiness = () => {
      if (this.conn !== conn) return;
      this.stateValue = conn.readiness.state;
      this.options.onStatusChanged();
    };
    conn.readiness.onChange(onReadiness);
    onReadiness();
    // A server being replaced (restart_lsp_server) speaks to nobody any more.
    conn.onServerNotification(({ method, params }) => {
      if (this.conn === conn) this.fanOut(method, params);
    });
    conn.onCrash((err) => {
      if (this.conn === conn) this.crashed(err);
    });
    conn.onDiagnosticsRefresh(() => {
      if (this.conn === conn) bridge.refreshAll();
    });
    // Registrations made after a client connected reach it too (replay covers the earlier ones).
    conn.onRegistrationChange(({ method, params }) => {
      if (this.conn !== conn) return;
      for (const c of this.options.clients()) c.forwardRegistration(method, params);
      this.options.onRegistrations?.(conn);
    });
    this.options.onRegistrations?.(conn);
    return conn;
  }

  /**
   * The server died: its pending requests already failed with an error naming the crash. Clients
   * are told `restarting`; a new server gets every document clients hold, within the budget.
   */
  private crashed(err: Error): void {
    if (this.stopped) return;
    const { recent, allowed } = this.budget.crashed();
    this.options.logger.error(`language server crashed (${recent} in ${this.budget.windowMinutes} min): ${err.message}`);
    this.reportHealth({ state: 'crashed', ...(this.conn?.pid !== undefined ? { pid: this.conn.pid } : {}), reason: err.message });
    if (!allowed) {
      const reason = `server crashed ${recent} times in ${this.budget.windowMinutes} minutes`;
      this.reportHealth({ state: 'gave_up', reason });
      this.options.onGiveUp(reason);
      return;
    }
    this.conn = undefined;
    this.stateValue = 'restarting';
    this.restartCount++;
    this.options.onStatusChanged();
    this.reportHealth({ state: 'restarting', reason: 'after a crash' });
    this.started = this.launch();
    this.started.then(
      (conn) => this.reportHealth({ state: 'recovered', ...(conn.pid !== undefined ? { pid: conn.pid } : {}) }),
      (e: Error) => {
        this.reportHealth({ state: 'gave_up', reason: `server failed to restart: ${e.message}` });
        this.options.onGiveUp(`server failed to restart: ${e.message}`);
      },
    );
  }

  private reportHealth(event: Omit<BrokerServerStateParams, 'restarts'>): void {
    if (!this.stopped) this.options.onHealth?.({ ...event, restarts: this.restartCount });
  }

  /**
   * Someone asked for a fresh server (restart_lsp_server): the running one is stopped, its whole
   * process group, and a new one started the way a crash restarts it — clients are told
   * `restarting`, and get their documents re-opened and the registrations passed on. Not counted
   * against the crash budget. Two requests at once make one restart.
   */
  restart(reason: string): Promise<BrokerRestartServerResult> {
    if (this.stopped) return Promise.reject(new WireError(ErrorCodes.InternalError, 'the broker is stopping; its next client starts a new one'));
    this.restarting ??= this.restartNow(reason).finally(() => (this.restarting = undefined));
    return this.restarting;
  }

  private async restartNow(reason: string): Promise<BrokerRestartServerResult> {
    // A server still starting is let finish first: it is then stopped like any other.
    const old = await this.started?.catch(() => undefined);
    const previousPid = old?.pid;
    this.options.logger.info(`restarting the language server${previousPid !== undefined ? ` pid ${previousPid}` : ''}: ${reason}`);
    this.conn = undefined;
    this.stateValue = 'restarting';
    this.restartCount++;
    this.options.onStatusChanged();
    this.reportHealth({ state: 'restarting', reason });
    const next = (async () => {
      await old?.shutdown().catch(() => undefined);
      if (this.stopped) throw new Error('the broker is stopping');
      return this.launch();
    })();
    this.started = next;
    next.catch((e: Error) => {
      if (!this.stopped) this.options.onGiveUp(`server failed to restart: ${e.message}`);
    });
    const conn = await next;
    this.reportHealth({ state: 'recovered', ...(conn.pid !== undefined ? { pid: conn.pid } : {}) });
    return { ...(previousPid !== undefined ? { previousPid } : {}), ...(conn.pid !== undefined ? { pid: conn.pid } : {}), ...(conn.companionPid !== undefined ? { companionPid: conn.companionPid } : {}) };
  }

  /** Server notifications reach every client; a client's own progress reaches that client only. */
  private fanOut(method: string, params: unknown): void {
    if (method === 'textDocument/publishDiagnostics') {
      this.options.bridge.forwardPush(params as PublishDiagnosticsParams);
      return;
    }
    if (method === '$/progress') {
      const token = (params as { token?: unknown }).token;
      if (isClientToken(token)) {
        for (const c of this.options.clients()) {
          const own = ownToken(token, c.tokenPrefix);
          if (own !== undefined) c.notify(method, { ...(params as object), token: own });
        }
        return;
      }
      // A token the server created: to the clients told to create it too.
      if (typeof token === 'string' || typeof token === 'number') {
        for (const c of this.options.clients()) c.relayServerProgress({ token, value: (params as { value?: unknown }).value });
      }
      return;
    }
    for (const c of this.options.clients()) c.notify(method, params);
  }

  /** workspace/applyEdit goes to the client whose request made the server ask for it. */
  private async routeApplyEdit(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    let target: BrokerClient | undefined;
    let latest = -1;
    for (const c of this.options.clients()) {
      const since = c.inFlightSince(EDIT_CAUSING_METHODS);
      if (since !== undefined && since > latest) {
        latest = since;
        target = c;
      }
    }
    if (!target) return { applied: false, failureReason: 'no client request in flight asked for this edit' };
    try {
      return await target.request<ApplyWorkspaceEditResult>('workspace/applyEdit', params);
    } catch (err) {
      return { applied: false, failureReason: `client ${target.id}: ${(err as Error).message}` };
    }
  }

  /** From now on a crash is not restarted (the broker is stopping). */
  stopRestarting(): void {
    this.stopped = true;
    this.health.dispose();
  }

  /** Stops the server (its whole process group); no restart follows. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.health.dispose();
    // During a restart the new server may still be on its way: it is stopped too.
    const conn = this.conn ?? (await this.started?.catch(() => undefined));
    await conn?.shutdown().catch(() => undefined);
  }
}
