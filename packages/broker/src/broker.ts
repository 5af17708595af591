import { rmSync, unlinkSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import {
  AGENT_LSP_PROTOCOL_VERSION,
  AGENT_LSP_VERSION,
  uriToPath,
  BrokerStatusNotification,
  type AgentLspExperimental,
  type BrokerState,
  type BrokerStatusParams,
} from '@agent-lsp/protocol';
import { startDirectConnection, type DocumentStore, type LspConnection, type Logger, type ServerDefinition } from '@agent-lsp/lsp';
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, FileEvent, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { ClientSession, type BrokerHost } from './clientSession.js';
import { DiagnosticsBridge } from './diagnosticsBridge.js';
import { LeaseManager, type LeaseHost } from './lease.js';
import { isClientToken, ownToken } from './progressTokens.js';
import { WorkspaceWatcher } from './watcher.js';
import { DAEMON_SCHEMA, daemonFilePath, writeDaemonFile, type DaemonInfo } from './daemonFile.js';
import { ensurePrivateDir, socketPathFor } from './paths.js';
import { SharedDocuments } from './sharedDocuments.js';

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
/** Server restarts allowed within RESTART_WINDOW_MS before the broker gives up and exits. */
const RESTART_BUDGET = 5;
const RESTART_WINDOW_MS = 3 * 60_000;
/** Client requests during which a server may ask the client to apply an edit. */
const EDIT_CAUSING_METHODS = ['workspace/executeCommand', 'codeAction/resolve', 'textDocument/codeAction', 'textDocument/rename', 'workspace/willRenameFiles', 'workspace/willCreateFiles', 'workspace/willDeleteFiles'];
const LOCK_STALE_MS = 10_000;

export interface BrokerOptions {
  key: string;
  dir: string;
  root: string;
  server: ServerDefinition;
  idleTimeoutMs: number;
  logger: Logger;
}

/** Lock files live beside their (never created) targets: `<dir>/lifetime.lock`, `<dir>/spawn.lock`. */
export function lockTarget(dir: string, name: 'lifetime' | 'spawn'): string {
  return join(dir, name);
}

/**
 * The daemon: one warm language server for one (root, profile), shared by any number of clients
 * over a Unix socket. `run()` resolves once it has stopped and removed its files.
 */
export class Broker implements BrokerHost, LeaseHost {
  readonly documents = new SharedDocuments(
    () => this.conn?.documents,
    (uri) => this.bridge.changed(uri),
  );
  private readonly bridge: DiagnosticsBridge;
  readonly lease: LeaseManager;
  private watcher: WorkspaceWatcher | undefined;
  private crashTimes: number[] = [];
  private restarts = 0;
  private readonly clients = new Set<ClientSession>();
  private nextClientId = 1;
  private conn: LspConnection | undefined;
  private serverStarted: Promise<LspConnection> | undefined;
  private state: BrokerState = 'starting';
  private listener: Server | undefined;
  private socketPath = '';
  private releaseLock: (() => Promise<void>) | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private writeTimer: NodeJS.Timeout | undefined;
  private lastActivity = Date.now();
  private readonly startedAt = new Date();
  private stopping: Promise<void> | undefined;
  private resolveStopped: (() => void) | undefined;

  constructor(private readonly options: BrokerOptions) {
    this.bridge = new DiagnosticsBridge(this.documents, () => this.clients, () => this.conn, options.logger, (client, uri) => this.lease.visible(client.id, uri));
    this.lease = new LeaseManager(this);
  }

  get logger(): Logger {
    return this.options.logger;
  }

  /** Runs until stopped (idle timeout, SIGTERM, $/agentLsp/stop, server gone). */
  async run(): Promise<'stopped' | 'already-running'> {
    const { dir, logger } = this.options;
    ensurePrivateDir(dir);
    try {
      this.releaseLock = await lockfile.lock(lockTarget(dir, 'lifetime'), {
        realpath: false,
        stale: LOCK_STALE_MS,
        update: LOCK_STALE_MS / 2,
        // A dead broker's lock turns stale after LOCK_STALE_MS; wait that out rather than give up.
        retries: { retries: 40, minTimeout: 250, maxTimeout: 500 },
        onCompromised: (err) => {
          logger.error(`lifetime lock compromised (${err.message}); stopping`);
          void this.stop('lock compromised');
        },
      });
    } catch (err) {
      logger.info(`another broker holds ${dir} (${(err as Error).message}); exiting`);
      return 'already-running';
    }
    this.socketPath = socketPathFor(dir, this.options.key);
    if (!(await this.listen())) {
      await this.releaseLock();
      return 'already-running';
    }
    const stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));
    const onSignal = (signal: string) => void this.stop(signal);
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    this.writeStatus();
    this.scheduleIdle();
    this.serverStarted = this.startServer();
    this.serverStarted.catch((err: Error) => {
      logger.error(`language server failed to start: ${err.message}`);
      void this.stop('server failed to start');
    });
    this.watcher = new WorkspaceWatcher({
      root: this.options.root,
      logger,
      onChanges: (changes) => {
        logger.debug(`watched files changed: ${changes.map((c) => `${c.type}:${c.uri}`).join(' ')}`);
        // Open documents that are the disk's take the new text first; then the server hears of all.
        void this.documents.diskChanged(changes.map((c) => c.uri)).finally(() => this.conn?.notify('workspace/didChangeWatchedFiles', { changes }));
      },
    });
    this.watcher.start();
    await stopped;
    return 'stopped';
  }

  /** Binds the socket: EADDRINUSE with a live peer means another broker won; a dead file is removed. */
  private async listen(): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const server = createServer((socket) => this.accept(socket));
      const result = await new Promise<'ok' | 'in-use'>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve('in-use') : reject(err)));
        server.listen(this.socketPath, () => resolve('ok'));
      });
      if (result === 'ok') {
        this.listener = server;
        return true;
      }
      if (await socketAnswers(this.socketPath)) {
        this.logger.info(`a live broker already listens on ${this.socketPath}; exiting`);
        return false;
      }
      unlinkSync(this.socketPath);
    }
    return false;
  }

  private async startServer(): Promise<LspConnection> {
    const { server, root, logger } = this.options;
    const conn = await startDirectConnection({
      server,
      rootDir: root,
      workspaceFolders: [root],
      logger,
      onApplyEdit: (params) => this.routeApplyEdit(params),
    });
    this.conn = conn;
    this.documents.resyncAll();
    const onReadiness = () => {
      this.state = conn.readiness.state;
      this.statusChanged();
    };
    conn.readiness.onChange(onReadiness);
    onReadiness();
    conn.onServerNotification(({ method, params }) => this.fanOut(method, params));
    conn.onCrash((err) => this.serverCrashed(err));
    conn.onDiagnosticsRefresh(() => this.bridge.refreshAll());
    // Registrations made after a client connected reach it too (replay covers the earlier ones).
    conn.onRegistrationChange(({ method, params }) => {
      for (const c of this.clients) c.forwardRegistration(method, params);
    });
    return conn;
  }

  /**
   * The server died: its pending requests already failed with an error naming the crash. Clients
   * are told `restarting`; a new server gets every document clients hold, within a budget.
   */
  private serverCrashed(err: Error): void {
    if (this.stopping) return;
    const now = Date.now();
    this.crashTimes = [...this.crashTimes.filter((t) => now - t < RESTART_WINDOW_MS), now];
    this.options.logger.error(`language server crashed (${this.crashTimes.length} in 3 min): ${err.message}`);
    if (this.crashTimes.length > RESTART_BUDGET) {
      void this.stop(`server crashed ${this.crashTimes.length} times in 3 minutes`);
      return;
    }
    this.conn = undefined;
    this.state = 'restarting';
    this.restarts++;
    this.statusChanged();
    this.serverStarted = this.startServer();
    this.serverStarted.catch((e: Error) => void this.stop(`server failed to restart: ${e.message}`));
  }

  /** Server notifications reach every client; a client's own progress reaches that client only. */
  private fanOut(method: string, params: unknown): void {
    if (method === 'textDocument/publishDiagnostics') {
      this.bridge.forwardPush(params as PublishDiagnosticsParams);
      return;
    }
    if (method === '$/progress') {
      const token = (params as { token?: unknown }).token;
      if (isClientToken(token)) {
        for (const c of this.clients) {
          const own = ownToken(token, c.tokenPrefix);
          if (own !== undefined) c.notify(method, { ...(params as object), token: own });
        }
        return;
      }
    }
    for (const c of this.clients) c.notify(method, params);
  }

  /** workspace/applyEdit goes to the client whose request made the server ask for it. */
  private async routeApplyEdit(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    let target: ClientSession | undefined;
    let latest = -1;
    for (const c of this.clients) {
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

  /** The server, once started; documents no client holds are checked against the disk before each use. */
  server(): Promise<LspConnection> {
    return (this.serverStarted ?? Promise.reject(new Error('broker is not running'))).then((conn) => this.documents.refreshUnheld().then(() => conn));
  }

  private status(): BrokerStatusParams {
    const snap = this.conn?.readiness.snapshot();
    const out: BrokerStatusParams = { state: this.stopping ? 'stopping' : this.state, ready: snap?.ready === true && !this.stopping };
    if (snap?.progress) out.progress = snap.progress;
    return out;
  }

  experimental(): AgentLspExperimental {
    return { protocol: AGENT_LSP_PROTOCOL_VERSION, key: this.options.key, ...this.status() };
  }

  /** Readiness or clients changed: tell clients and rewrite daemon.json now (status readers poll it). */
  private statusChanged(): void {
    this.broadcastStatus();
    this.writeStatus(true);
  }

  private broadcastStatus(): void {
    const status = this.status();
    for (const c of this.clients) c.notify(BrokerStatusNotification.method, status);
  }

  private accept(socket: Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const session = new ClientSession(this.nextClientId++, socket, this);
    this.clients.add(session);
    this.touch();
    this.scheduleIdle();
    this.writeStatus(true);
  }

  removeClient(session: ClientSession): void {
    if (!this.clients.delete(session)) return;
    this.lease.clientGone(session.id);
    this.documents.dropClient(session.id);
    this.touch();
    this.scheduleIdle();
    this.writeStatus(true);
  }

  clientReportedChanges(changes: FileEvent[]): void {
    for (const c of changes) {
      const path = uriToPath(c.uri);
      if (path) this.watcher?.suppress(path);
    }
  }

  // LeaseHost
  serverDocuments(): DocumentStore | undefined {
    return this.conn?.documents;
  }

  inFlightOfOthers(client: number): number {
    let n = 0;
    for (const c of this.clients) if (c.id !== client) n += c.inFlightCount;
    return n;
  }

  exclusive(active: boolean): void {
    if (active) this.watcher?.pause();
    else this.watcher?.resume();
  }

  restored(uris: string[]): void {
    for (const uri of uris) this.bridge.changed(uri);
    if (uris.length > 0) this.bridge.refreshPullers();
  }

  clientCount(): number {
    return this.clients.size;
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  /** The idle timeout runs only while no client is connected. */
  private scheduleIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.clients.size > 0 || this.stopping) return;
    this.idleTimer = setTimeout(() => void this.stop('idle timeout'), this.options.idleTimeoutMs);
  }

  /** Coalesces bursts of changes (progress lines) into one atomic daemon.json write; `now` skips the wait. */
  private writeStatus(now = false): void {
    if (this.stopping) return;
    if (now) {
      clearTimeout(this.writeTimer);
      this.writeTimer = undefined;
      writeDaemonFile(this.options.dir, this.info());
      return;
    }
    if (this.writeTimer) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      if (!this.stopping) writeDaemonFile(this.options.dir, this.info());
    }, 50);
  }

  info(): DaemonInfo {
    const { key, root, server, idleTimeoutMs } = this.options;
    const conn = this.conn;
    const status = this.status();
    const info: DaemonInfo = {
      schema: DAEMON_SCHEMA,
      key,
      root,
      language: server.languageIds[0] ?? server.id,
      profile: conn?.resolved.profileFingerprint ?? server.id,
      socket: this.socketPath,
      broker: { pid: process.pid, version: AGENT_LSP_VERSION, startedAt: this.startedAt.toISOString() },
      server: { name: conn?.serverInfo?.name ?? server.displayName, command: conn?.resolved.command ?? [] },
      state: status.state,
      ready: status.ready,
      clients: this.clients.size,
      lastActivityAt: new Date(this.lastActivity).toISOString(),
      idleTimeoutMs,
      restarts: this.restarts,
    };
    if (conn?.serverInfo?.version) info.server.version = conn.serverInfo.version;
    if (conn?.pid !== undefined) info.server.pid = conn.pid;
    if (conn?.readiness.readyAt) info.readyAt = new Date(conn.readiness.readyAt).toISOString();
    if (status.progress) info.progress = status.progress;
    return info;
  }

  /** Stops the server (its whole process group), closes clients, removes socket, daemon.json, lock. */
  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      const { dir, logger } = this.options;
      logger.info(`stopping: ${reason}`);
      clearTimeout(this.idleTimer);
      clearTimeout(this.writeTimer);
      this.watcher?.dispose();
      this.bridge.dispose();
      this.lease.dispose();
      this.documents.dispose();
      this.broadcastStatus();
      for (const c of [...this.clients]) c.close();
      await this.conn?.shutdown().catch(() => undefined);
      await new Promise<void>((r) => (this.listener ? this.listener.close(() => r()) : r()));
      rmSync(daemonFilePath(dir), { force: true });
      rmSync(this.socketPath, { force: true });
      await this.releaseLock?.().catch(() => undefined);
      this.resolveStopped?.();
    })();
    return this.stopping;
  }
}

/** Whether something accepts connections on a Unix socket path. */
export function socketAnswers(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (v: boolean) => {
      clearTimeout(timer);
      s.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}
