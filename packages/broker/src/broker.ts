import type { Socket } from 'node:net';
import { AGENT_LSP_PROTOCOL_VERSION, uriToPath, BrokerFilesChangedNotification, BrokerServerStateNotification, BrokerStatusNotification, type AgentLspExperimental, type BrokerEvictResult, type BrokerFilesChangedParams, type BrokerRestartServerResult, type BrokerServerStateParams, type BrokerStatusParams, type WireError } from '@agent-lsp/protocol';
import { RootIdentity, serverLibraryDirs, untilChangedFilesBuilt, untilConfigApplied, type DocumentStore, type LspConnection, type Logger } from '@agent-lsp/lsp';
import type { FileEvent } from 'vscode-languageserver-protocol';
import { AcceptLoop } from './acceptLoop.js';
import { BrokerClient } from './brokerClient.js';
import type { BrokerHost } from './brokerHost.js';
import { DiagnosticsBridge } from './diagnosticsBridge.js';
import { LeaseManager, type LeaseHost } from './lease.js';
import { WorkspaceWatcher } from './watcher.js';
import { daemonFilePath, type DaemonInfo } from './daemonFile.js';
import { ensurePrivateDir, socketPathFor } from './paths.js';
import { ServerInstance } from './serverInstance.js';
import { SharedDocuments } from './sharedDocuments.js';
import { StatusWriter } from './statusWriter.js';
import { DEFAULT_MAX_IN_FLIGHT, RequestScheduler } from './requestScheduler.js';
import { ClientFolders } from './clientFolders.js';
import { ACTIVITY_PERSIST_MS, ATTACHING_GRACE_MS, EVICT_ANSWER_MS, EVICT_GRACE_MS, type BrokerOptions } from './brokerOptions.js';
import { daemonInfo } from './daemonInfo.js';
import { removeBrokerFiles, takeLifetimeLock } from './brokerFiles.js';
import { followOutsideChanges } from './outsideChanges.js';

export { socketAnswers } from './acceptLoop.js';
export { DEFAULT_IDLE_TIMEOUT_MS, lockTarget, type BrokerOptions } from './brokerOptions.js';

/**
 * The daemon: one warm language server for one (root, profile), shared by any number of clients
 * over a Unix socket. It wires its parts together — the accept loop (socket and clients), the
 * server instance (restarts, fan-out, applyEdit routing), shared documents, exclusive sections,
 * the watcher and the status writer — and owns its lifetime: the lifetime lock, the idle timer and
 * stopping. `run()` resolves once it has stopped and removed its files. Process-wide effects
 * (signal handlers) belong to the entry point, which calls `stop()`.
 */
export class Broker implements BrokerHost<BrokerClient>, LeaseHost {
  readonly documents = new SharedDocuments(
    () => this.instance.connection?.documents,
    (uri) => this.bridge.changed(uri),
    (client) => [...this.accepting.clients].some((c) => c.id === client),
  );
  readonly lease: LeaseManager;
  readonly scheduler: RequestScheduler;
  readonly folders: ClientFolders;
  private readonly bridge: DiagnosticsBridge;
  private readonly instance: ServerInstance;
  private readonly accepting: AcceptLoop<BrokerClient>;
  private readonly status: StatusWriter;
  private readonly socketPath: string;
  private watcher: WorkspaceWatcher | undefined;
  /** What the root was when this broker started (serverForRequest). */
  private readonly rootIdentity: RootIdentity;
  private releaseLock: (() => Promise<void>) | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private lastActivity = Date.now();
  /** The lastActivity daemon.json last got. */
  private persistedActivity = 0;
  /** When a client (not an eviction request) last went away. */
  private lastDisconnect = 0;
  /** Whether any client has sent initialize yet. */
  private everIdentified = false;
  /** An eviction agreed: who asked, and the stop that follows once it has the answer. */
  private evictedBy: { client: number; stop: () => void } | undefined;
  private readonly startedAt = new Date();
  private stopping: Promise<void> | undefined;
  private resolveStopped: (() => void) | undefined;

  constructor(private readonly options: BrokerOptions) {
    const clients = () => this.accepting.clients;
    this.bridge = new DiagnosticsBridge(this.documents, clients, () => this.instance.connection, options.logger, (client, uri) => this.lease.visible(client.id, uri), (store, uri, version) => this.lease.leasedVersions.has(store, uri, version));
    this.lease = new LeaseManager(this);
    this.scheduler = new RequestScheduler({ maxInFlight: options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, admits: (client) => this.lease.admits(client) });
    this.folders = new ClientFolders(options.root);
    this.instance = new ServerInstance({
      server: options.server,
      ...(options.resolved ? { resolved: options.resolved } : {}),
      root: options.root,
      logger: options.logger,
      clients,
      documents: this.documents,
      bridge: this.bridge,
      onStatusChanged: () => this.statusChanged(),
      onGiveUp: (reason) => void this.stop(reason),
      onHealth: (event) => this.broadcastHealth(event),
      onUnresponsive: (error) => this.accepting.clients.forEach((c) => c.failInFlight(error)),
      onRegistrations: (conn) => this.watcher?.followLibraries(() => serverLibraryDirs(conn)),
    });
    this.rootIdentity = new RootIdentity(options.root);
    this.socketPath = socketPathFor(options.dir, options.key);
    this.accepting = new AcceptLoop({
      socketPath: this.socketPath,
      logger: options.logger,
      open: (id: number, socket: Socket) => new BrokerClient(id, socket, this),
      // Only real clients' comings and goings are activity (identify, removeClient): probes and
      // eviction requests must not make an idle broker look recently used.
      onClientsChanged: () => {
        this.scheduleIdle();
        this.status.changed();
      },
      // Whoever removed the socket may have removed daemon.json too.
      onRebound: () => this.status.changed(),
      onLost: (reason) => void this.stop(reason),
    });
    this.status = new StatusWriter({ dir: options.dir, snapshot: () => this.info(), logger: options.logger, ...(options.writeStatus ? { write: options.writeStatus } : {}) });
  }

  get logger(): Logger {
    return this.options.logger;
  }

  /** Runs until stopped (idle timeout, $/agentLsp/stop, server gone, or the entry point's stop()). */
  async run(): Promise<'stopped' | 'already-running'> {
    const { dir, logger } = this.options;
    ensurePrivateDir(dir);
    this.releaseLock = await takeLifetimeLock(dir, logger, () => void this.stop('lock compromised'));
    if (!this.releaseLock) return 'already-running';
    if (this.stopping || !(await this.accepting.listen())) {
      await this.releaseLock();
      return this.stopping ? 'stopped' : 'already-running';
    }
    const stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));
    this.status.changed();
    this.scheduleIdle();
    this.instance.start();
    this.watcher = new WorkspaceWatcher({
      root: this.options.root,
      logger,
      onChanges: (changes) => {
        logger.debug(`watched files changed: ${changes.map((c) => `${c.type}:${c.uri}`).join(' ')}`);
        this.broadcastFilesChanged({ origin: 'outside', changes });
        return followOutsideChanges(changes, this.documents, () => this.instance.connection, this.options.server, (uri) => !this.watcher?.inLibrary(uriToPath(uri) ?? ''));
      },
    });
    this.watcher.start();
    await stopped;
    return 'stopped';
  }

  /** The server, once started. */
  server(): Promise<LspConnection> {
    return this.instance.ready().then((conn) => {
      // A restarted server starts with the root only: it gets the clients' folders back.
      conn.setWorkspaceFolders(this.folders.union());
      return conn;
    });
  }

  /**
   * The server for a client's request: files written just before the request arrived are news to
   * it (the watcher's pending events), and documents no client holds are checked against the disk.
   * Notifications need neither: they carry their own text or answer nothing. `eventsRead` (see
   * BrokerHost) spares the watcher's flush its own turns of the loop.
   */
  async serverForRequest(eventsRead?: Promise<void>): Promise<LspConnection> {
    if (this.rootIdentity.replaced()) {
      // Nothing this broker knows holds any more: it goes, and its clients' next request (a front
      // asks a read-only one again at once) starts a broker on the new directory.
      const reason = `the workspace root ${this.options.root} was removed or replaced on disk`;
      await this.stop(reason);
      throw new Error(`${reason}; this broker stopped`);
    }
    const conn = await this.server();
    await this.watcher?.flush(undefined, eventsRead);
    await this.documents.refreshUnheld();
    await untilConfigApplied(conn);
    await untilChangedFilesBuilt(conn);
    return conn;
  }

  watching(): boolean {
    return this.watcher !== undefined && !this.watcher.degraded;
  }

  private statusParams(): BrokerStatusParams {
    const { state, isReady: ready, progress, connection } = this.instance;
    const out: BrokerStatusParams = { state: this.stopping ? 'stopping' : state, ready: ready && !this.stopping };
    if (progress && !out.ready) out.progress = progress;
    const partial = connection?.readiness.snapshot().partial;
    if (partial && out.ready) out.partial = partial;
    if (connection?.pid !== undefined) out.serverPid = connection.pid;
    if (connection?.companionPid !== undefined) out.companionPid = connection.companionPid;
    return out;
  }

  unresponsive(): WireError | undefined {
    return this.instance.unresponsive();
  }

  restartServer(reason: string): Promise<BrokerRestartServerResult> {
    return this.instance.restart(reason);
  }

  experimental(): AgentLspExperimental {
    return { protocol: AGENT_LSP_PROTOCOL_VERSION, key: this.options.key, ...this.statusParams() };
  }

  /** Readiness changed: tell clients, and rewrite daemon.json (status readers poll it). */
  private statusChanged(): void {
    this.broadcastStatus();
    this.status.changed();
  }

  private broadcastStatus(): void {
    const status = this.statusParams();
    for (const c of this.accepting.clients) c.notify(BrokerStatusNotification.type, status);
  }

  /** Every client hears of the server's health (their agents are told: crashed, restarting, ...). */
  private broadcastHealth(event: BrokerServerStateParams): void {
    for (const c of this.accepting.clients) c.notify(BrokerServerStateNotification.type, event);
  }

  /** Files changed on disk: every client but the one that reported them itself. */
  private broadcastFilesChanged(params: BrokerFilesChangedParams, except?: number): void {
    for (const c of this.accepting.clients) if (c.id !== except) c.notify(BrokerFilesChangedNotification.type, params);
  }

  removeClient(session: BrokerClient): void {
    if (!this.accepting.clients.has(session)) return;
    if (session.identified) this.touch();
    if (!session.evictor) this.lastDisconnect = Date.now();
    if (!this.accepting.remove(session)) return;
    this.lease.clientGone(session.id);
    this.documents.dropClient(session.id);
    if (this.folders.dropClient(session.id)) this.instance.connection?.setWorkspaceFolders(this.folders.union());
    if (this.evictedBy?.client === session.id) this.evictedBy.stop();
  }

  clientReportedChanges(changes: FileEvent[], from?: number): void {
    this.broadcastFilesChanged({ origin: 'client', changes }, from);
    for (const c of changes) {
      const path = uriToPath(c.uri);
      if (path) this.watcher?.suppress(path);
    }
  }

  // LeaseHost
  serverDocuments(): DocumentStore | undefined {
    return this.instance.connection?.documents;
  }

  inFlightOfOthers(client: number): number {
    let n = 0;
    for (const c of this.accepting.clients) if (c.id !== client) n += c.inFlightCount;
    return n;
  }

  sectionActive(active: boolean): void {
    if (active) this.watcher?.pause();
    else this.watcher?.resume();
    // Requests of others that waited in the scheduler may go now.
    if (!active) this.scheduler.pump();
  }

  diagnosticsOnOpen(client: BrokerClient, uri: string): void {
    this.bridge.replay(client, uri, this.lease.holds(client.id));
  }

  restored(uris: string[]): void {
    for (const uri of uris) this.bridge.changed(uri);
    if (uris.length > 0) this.bridge.refreshPullers();
  }

  requests(): { inFlight: number; queued: number } {
    return this.scheduler.stats;
  }

  leaseExpired(client: number): void {
    for (const c of this.accepting.clients) {
      if (c.id !== client) continue;
      this.logger.warn(`client ${client} let its lease expire; disconnecting it so nothing it still sends for that section reaches the server`);
      c.close();
    }
  }

  clientCount(): number {
    return this.accepting.clients.size;
  }

  touch(): void {
    this.lastActivity = Date.now();
    if (this.lastActivity - this.persistedActivity >= ACTIVITY_PERSIST_MS) this.status.changed();
  }

  clientIdentified(): void {
    this.everIdentified = true;
    this.touch();
    this.status.changed();
  }

  /**
   * Agrees to stop only when idle, judged now, on the event loop, so that nothing can connect
   * between the decision and the stop: no client but the asker, not a fresh broker whose front is
   * still attaching, no client gone moments ago. Once agreed, new connections are refused at once
   * and the graceful stop begins after the answer is written.
   */
  evict(from: number, reason: string): BrokerEvictResult {
    if (this.stopping || this.evictedBy) return { evicted: false, refused: 'it is stopping already' };
    const others = [...this.accepting.clients].filter((c) => c.id !== from).length;
    if (others > 0) return { evicted: false, refused: `it has ${others} client(s) connected` };
    const now = Date.now();
    if (!this.everIdentified && now - this.startedAt.getTime() < ATTACHING_GRACE_MS) {
      return { evicted: false, refused: 'it started moments ago and its front is still attaching' };
    }
    if (now - this.lastDisconnect < EVICT_GRACE_MS) return { evicted: false, refused: 'a client left moments ago' };
    this.accepting.refuseNew();
    // The answer must reach the asker before its connection is closed by the stop: the stop
    // begins when the asker hangs up (it does on reading the answer), or after a moment.
    const timer = setTimeout(() => void this.stop(`evicted: ${reason}`), EVICT_ANSWER_MS);
    this.evictedBy = { client: from, stop: () => (clearTimeout(timer), void this.stop(`evicted: ${reason}`)) };
    return { evicted: true };
  }

  /** The idle timeout runs only while no client is connected. */
  private scheduleIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.accepting.clients.size > 0 || this.stopping) return;
    this.idleTimer = setTimeout(() => void this.stop('idle timeout'), this.options.idleTimeoutMs);
  }

  info(): DaemonInfo {
    this.persistedActivity = this.lastActivity;
    return daemonInfo({ ...this.options, socketPath: this.socketPath, startedAt: this.startedAt, lastActivity: this.lastActivity, conn: this.instance.connection, status: this.statusParams(), clients: [...this.accepting.clients], restarts: this.instance.restarts });
  }

  /** Stops the server (its whole process group), closes clients, removes socket, daemon.json, lock. */
  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      const { dir, logger } = this.options;
      logger.info(`stopping: ${reason}`);
      clearTimeout(this.idleTimer);
      this.instance.stopRestarting();
      const statusClosed = this.status.close();
      this.watcher?.dispose();
      this.bridge.dispose();
      this.lease.dispose();
      this.scheduler.dispose();
      this.documents.dispose();
      this.broadcastStatus();
      const listenerClosed = this.accepting.close();
      for (const c of [...this.accepting.clients]) c.close();
      await this.instance.shutdown();
      await listenerClosed;
      await statusClosed;
      // A socket path another process took is not ours to remove.
      removeBrokerFiles([daemonFilePath(dir), ...(this.accepting.ownsSocketFile ? [this.socketPath] : [])], logger);
      await this.releaseLock?.().catch(() => undefined);
      this.resolveStopped?.();
    })();
    return this.stopping;
  }
}
