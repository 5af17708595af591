import { createMessageConnection, StreamMessageReader, type MessageConnection, type NotificationType, type RequestType, type RequestType0 } from 'vscode-jsonrpc/node';
import type { DidChangeWatchedFilesParams, InitializeResult, ServerCapabilities } from 'vscode-languageserver-protocol';
import { BrokerEpochRequest, BrokerFilesChangedNotification, BrokerSettledDiagnosticsRequest, BrokerRestartServerRequest, type BrokerEpochResult, BrokerStatusNotification, DisposableStore, pathToUri, type AgentLspExperimental, type Disposable } from '@agent-lsp/protocol';
import { LocalExclusiveAccess, type ExclusiveAccess, type ExclusiveOptions } from './exclusiveAccess.js';
import type { DiagnosticsCollector } from './diagnostics.js';
import type { DocumentStore } from './documents.js';
import { documentState } from './documentState.js';
import { ConnectionEvents } from './connectionEvents.js';
import { ConnectionClosedError, RequestTimeoutError, ServerCrashedError } from './errors.js';
import { trackedRequest, type PendingRequest, type RequestOptions } from './trackedRequest.js';
import type { Logger } from './logger.js';
import { wholeMessageWriter } from './wholeMessageWriter.js';
import { tapMessages } from './messageTap.js';
import { InlineMessageReader, ralReadable } from './inlineMessageReader.js';
import { RelayedRequests } from './relayedRequests.js';
import { ProgressTracker } from './progress.js';
import { Readiness } from './readiness.js';
import type { ResolvedServer, ServerDefinition } from './serverProfile.js';
import { offers, syncsIncrementally } from './serverCapabilities.js';
import { refreshDependents } from './dependentRefresh.js';
import { installServerHandlers } from './serverHandlers.js';
import { refuseApplyEdit, RegistrationTable, toWorkspaceFolders } from './serverRequests.js';
import type { ServerTransport } from './serverProcess.js';
import type { ConnectionOptions, ConnectionState } from './connectionOptions.js';
import { initializeParams } from './initializeParams.js';
import { sendFailure, watchPeerExit, withPeerCancel } from './sendFailure.js';
import { readableServerInfo } from './serverInfoVersion.js';

export type { ConnectionState } from './connectionOptions.js';
export type LspConnectionOptions = ConnectionOptions<LspConnection>;
export { DEFAULT_REQUEST_TIMEOUT_MS, type RequestOptions } from './trackedRequest.js';
/** Notifications that never change what the server knows of the workspace (see `changeEpoch`). */
const NEUTRAL_NOTIFICATIONS = new Set(['initialized', '$/cancelRequest', '$/setTrace', 'window/workDoneProgress/cancel', 'exit']);

/**
 * One LSP session with one language server, over any transport (child stdio now; broker socket
 * and TCP later). Owns the document store, diagnostics and readiness for that server. Everything
 * above talks to this class and never knows how the bytes travel.
 */
export class LspConnection implements Disposable {
  private stateValue: ConnectionState = 'starting';
  private readonly rpc: MessageConnection;
  private readonly relayed: RelayedRequests;
  private readonly pending = new Set<PendingRequest>();
  private readonly disposables = new DisposableStore();
  private readonly registrations = new RegistrationTable();
  private readonly events = new ConnectionEvents();
  private crashError: Error | undefined;
  private initResult: InitializeResult | undefined;
  private folders: string[];
  private readonly access: ExclusiveAccess<LspConnection>;
  /** The server's pids as a peer that owns it (a broker) reports them; they change when that server restarts. */
  private peerPids: { serverPid?: number; companionPid?: number } = {};
  private changes = 0;

  readonly documents: DocumentStore;
  readonly diagnostics: DiagnosticsCollector;
  readonly progress = new ProgressTracker();
  readonly readiness = new Readiness();
  readonly onLogMessage = this.events.log.on.bind(this.events.log);
  readonly onCrash = this.events.crash.on.bind(this.events.crash);
  /** The server registered or unregistered a capability (after it was recorded). */
  readonly onRegistrationChange = this.events.registration.on.bind(this.events.registration);
  /** The server asked clients to pull diagnostics again (workspace/diagnostic/refresh). */
  readonly onDiagnosticsRefresh = this.events.refresh.on.bind(this.events.refresh);
  /** Every notification the server sends (after agent-lsp's own handling of it). */
  readonly onServerNotification = this.events.notification.on.bind(this.events.notification);
  /** Each `workspace/didChangeWatchedFiles` sent to the server, whoever sent it (configReload.ts). */
  readonly onWatchedFilesSent = this.events.watchedFiles.on.bind(this.events.watchedFiles);
  readonly startedAt = Date.now();

  private constructor(private readonly options: LspConnectionOptions) {
    this.folders = [...options.workspaceFolders];
    this.access = options.exclusiveAccess ?? new LocalExclusiveAccess();
    const writer = wholeMessageWriter(options.transport.output);
    this.relayed = new RelayedRequests(writer);
    const reader = options.inlineReads ? new InlineMessageReader(ralReadable(options.transport.input)) : new StreamMessageReader(options.transport.input);
    const tapped = tapMessages(reader, this.relayed.take);
    this.rpc = createMessageConnection(tapped.reader, writer, undefined, tapped.options);
    ({ documents: this.documents, diagnostics: this.diagnostics } = documentState({
      notify: (method, params) => this.notify(method, params),
      changedForOthers: (uri) => this.changedForOthers(uri),
      supportsPullDiagnostics: () => this.supportsPullDiagnostics(),
      incrementalSync: () => syncsIncrementally(this.capabilities),
      exactDiagnostics: options.server.exactDiagnostics,
      request: (method, params, opts) => this.request(method, params, opts),
      // A broker's watcher tells its server of outside edits: its epoch request passes them on first.
      catchUp: () => (this.broker ? this.brokerEpoch().then(() => undefined, () => undefined) : Promise.resolve()),
      peerSettled: (uri) => (this.broker ? this.request(BrokerSettledDiagnosticsRequest.type, { uri }, { timeoutMs: 10_000 }) : Promise.resolve(null)),
      onRegistrationChange: (listener) => this.events.registration.on(listener),
    }));
    for (const owned of [this.progress, this.readiness, this.events]) this.disposables.add(owned);
    installServerHandlers(this.rpc, {
      settings: options.resolved.settings,
      logger: options.logger,
      registrations: this.registrations,
      folders: () => this.folders,
      onApplyEdit: options.onApplyEdit ?? refuseApplyEdit,
      registrationChanged: (e) => this.events.registration.fire(e),
      diagnosticsRefresh: () => this.events.refresh.fire(),
      publishDiagnostics: (p) => this.diagnostics.onPublish(p),
      progress: (token, value) => this.progress.handle(token, value),
      logMessage: (p) => this.events.log.fire(p),
      notification: (e) => this.events.notification.fire(e),
    });
    this.rpc.listen();
    watchPeerExit(this.rpc, options.transport, (detail) => this.onPeerGone(detail));
  }

  /** Spawned, initialized and `initialized` sent; readiness is tracked from here on. */
  static async start(options: LspConnectionOptions): Promise<LspConnection> {
    const conn = new LspConnection(options);
    try {
      await conn.initialize(options.initializeTimeoutMs ?? 60_000);
    } catch (err) {
      // A peer that never answered initialize would not answer shutdown either: not asked, ended.
      await conn.shutdown({ ask: !(err instanceof RequestTimeoutError) });
      throw err;
    }
    return conn;
  }

  get state(): ConnectionState {
    return this.stateValue;
  }
  get server(): ServerDefinition {
    return this.options.server;
  }
  get resolved(): ResolvedServer {
    return this.options.resolved;
  }
  get rootDir(): string {
    return this.options.rootDir;
  }
  /** The language server's pid: our child's, or the one the peer that runs it reports. */
  get pid(): number | undefined {
    return this.options.transport.pid ?? this.peerPids.serverPid;
  }
  /** A paired server's second process (CompanionServer: vue-language-server beside vtsls), known the same way. */
  get companionPid(): number | undefined {
    return this.options.transport.companionPid ?? this.peerPids.companionPid;
  }
  get capabilities(): ServerCapabilities {
    return this.initResult?.capabilities ?? {};
  }
  get serverInfo(): { name: string; version?: string } | undefined {
    return readableServerInfo(this.initResult?.serverInfo);
  }
  get initializeResult(): InitializeResult | undefined {
    return this.initResult;
  }
  /** Set when the peer is an agent-lsp broker rather than a language server. */
  get broker(): AgentLspExperimental | undefined {
    const experimental = this.capabilities.experimental as { agentLsp?: AgentLspExperimental } | undefined;
    return experimental?.agentLsp;
  }
  get transport(): ServerTransport {
    return this.options.transport;
  }
  get workspaceFolders(): readonly string[] {
    return this.folders;
  }
  get isAlive(): boolean {
    return this.stateValue === 'running' || this.stateValue === 'starting';
  }
  get logger(): Logger {
    return this.options.logger;
  }
  /** Why the peer went away (a ServerCrashedError), once it has; undefined while it is there. */
  get failure(): Error | undefined {
    return this.crashError;
  }

  /** One typed notification of the peer (a broker's `$/agentLsp/status`, say). */
  onNotification<P>(type: NotificationType<P>, listener: (params: P) => void): Disposable {
    return this.onServerNotification(({ method, params }) => {
      if (method === type.method) listener(params as P);
    });
  }

  /** Whether textDocument/diagnostic answers: advertised, registered, or known of the server (exactDiagnostics `pull`). */
  supportsPullDiagnostics(): boolean {
    return this.server.exactDiagnostics === 'pull' || this.capabilities.diagnosticProvider !== undefined || this.registrations.has('textDocument/diagnostic');
  }

  /**
   * Runs `fn` in an exclusive section: no other evaluation of this front changes the server's
   * buffers meanwhile, and, through a broker, no other client's messages reach the server. `fn`
   * restores what it changed; its signal aborts if the section is lost before it ends.
   */
  runExclusive<T>(fn: (lost: AbortSignal) => Promise<T>, options: ExclusiveOptions = {}): Promise<T> {
    return this.access.run(this, fn, options);
  }

  /**
   * Restarts the language server in place where the peer runs it for several clients (a broker):
   * the peer replaces it, re-opens the documents its clients hold and tells them all. Resolves
   * false when the peer is the server itself: then restarting means a new connection.
   */
  async restartServer(): Promise<boolean> {
    if (!this.broker) return false;
    const result = await this.request(BrokerRestartServerRequest.type, null);
    this.peerPids = { serverPid: result.pid, companionPid: result.companionPid };
    return true;
  }

  /**
   * Where a broker runs the server: its change count for the server, after the broker has passed on
   * what its watcher saw (see BrokerEpochRequest). Undefined when the peer is the server itself.
   */
  async brokerEpoch(signal?: AbortSignal): Promise<BrokerEpochResult | undefined> {
    if (!this.broker) return undefined;
    return this.request(BrokerEpochRequest.type, null, signal ? { signal } : {});
  }

  /**
   * Whether the server offers a request method, statically (its initialize answer) or by dynamic
   * registration. Methods we do not know the capability of count as offered.
   */
  supports(method: string): boolean {
    return offers(this.capabilities, this.registrations, method);
  }

  dynamicRegistrations() {
    return this.registrations.all();
  }

  private async initialize(timeoutMs: number): Promise<void> {
    this.initResult = await this.request<InitializeResult>('initialize', initializeParams(this.options, this.folders), { timeoutMs });
    this.peerPids = { serverPid: this.broker?.serverPid, companionPid: this.broker?.companionPid };
    if (this.broker) {
      // A status without pids (the server restarting) keeps the last ones known.
      this.disposables.add(this.onNotification(BrokerStatusNotification.type, (st) => (this.peerPids = st.serverPid === undefined ? this.peerPids : { serverPid: st.serverPid, companionPid: st.companionPid })));
      // Files changed on disk that the broker told its server of: diagnostics pushed before may be stale.
      this.disposables.add(this.onNotification(BrokerFilesChangedNotification.type, (p) => this.diagnostics.filesChanged(p.changes.map((c) => c.uri))));
    }
    this.stateValue = 'running';
    this.notify('initialized', {});
    // Only to the server itself: a broker's own connection to it sends them (on every restart too).
    if (!this.broker && this.options.server.settingsPushedAfterInitialized) this.notify('workspace/didChangeConfiguration', { settings: this.options.resolved.settings });
    this.disposables.add(this.options.attachReadiness(this));
  }

  /** The requests on their way to the server now, oldest first: what a long tool call waits on. */
  requestsInFlight(): { method: string; since: number }[] {
    return [...this.pending].map(({ method, since }) => ({ method, since })).sort((a, b) => a.since - b.since);
  }

  /** Sends a request; rejects at once if the server dies, on timeout, or when the signal aborts. */
  request<P, R>(type: RequestType<P, R, void>, params: P, options?: RequestOptions): Promise<R>;
  request<R>(type: RequestType0<R, void>, params: null, options?: RequestOptions): Promise<R>;
  request<R>(method: string, params: unknown, options?: RequestOptions): Promise<R>;
  request<R>(methodOrType: string | { method: string }, params: unknown, options: RequestOptions = {}): Promise<R> {
    const method = typeof methodOrType === 'string' ? methodOrType : methodOrType.method;
    if (this.crashError) return Promise.reject(this.crashError);
    if (this.stateValue === 'stopped' || this.stateValue === 'stopping') {
      if (method !== 'shutdown') return Promise.reject(new ConnectionClosedError(this.options.server.displayName));
    }
    return trackedRequest(method, withPeerCancel(method, options, this.options.server, this.broker !== undefined), this.pending, (token) => this.rpc.sendRequest<R>(method, params, token), (err) => this.failedSend(method, err));
  }

  /**
   * Sends a client's request on for a broker, beside the connection's own requests (see
   * RelayedRequests): the same timeout, abort, crash and write-failure handling as `request`.
   */
  relayRequest(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.crashError) return Promise.reject(this.crashError);
    if (this.stateValue === 'stopped' || this.stateValue === 'stopping') return Promise.reject(new ConnectionClosedError(this.options.server.displayName));
    return trackedRequest(method, withPeerCancel(method, options, this.options.server, this.broker !== undefined), this.pending, (token) => this.relayed.send(method, params, token), (err) => this.failedSend(method, err));
  }

  /**
   * How many notifications that may change the server's view of the workspace (documents opened,
   * changed or closed, watched files, folders, settings) this connection has sent: an answer
   * computed at one value may differ from one computed at another. Never decreases.
   */
  get changeEpoch(): number {
    return this.changes;
  }

  notify(method: string, params: unknown): void {
    if (!NEUTRAL_NOTIFICATIONS.has(method)) this.changes++;
    // Watched files, folders, settings: beyond any one document (textDocument/* are counted by the store's notifier).
    if (method === 'workspace/didChangeWatchedFiles') this.changedForOthers((params as DidChangeWatchedFilesParams).changes.map((c) => c.uri));
    else if (!NEUTRAL_NOTIFICATIONS.has(method) && !method.startsWith('textDocument/')) this.changedForOthers(undefined);
    if (!this.isAlive) return;
    this.rpc.sendNotification(method, params).catch((err: Error) => this.options.logger.debug(`notify ${method}: ${err.message}`));
    if (method === 'workspace/didChangeWatchedFiles') this.events.watchedFiles.fire((params as DidChangeWatchedFilesParams).changes);
  }

  /** The server was told of `changed`: a document's new text (its uri), files changed on disk (theirs), or (undefined) a change beyond documents. */
  private changedForOthers(changed: string | readonly string[] | undefined): void {
    if (changed === undefined) this.diagnostics.workspaceChanged();
    else if (typeof changed === 'string') this.diagnostics.documentChanged(changed);
    else this.diagnostics.filesChanged(changed);
    // A broker's own connection to its server does this; a client of it need not.
    if (!this.broker && this.isAlive) refreshDependents(this, typeof changed === 'string' ? changed : undefined);
  }

  setWorkspaceFolders(folders: readonly string[]): void {
    const added = folders.filter((f) => !this.folders.includes(f));
    const removed = this.folders.filter((f) => !folders.includes(f));
    this.folders = [...folders];
    if (added.length || removed.length) this.notify('workspace/didChangeWorkspaceFolders', { event: { added: toWorkspaceFolders(added, pathToUri), removed: toWorkspaceFolders(removed, pathToUri) } });
  }

  /** Why a request failed to go out: the peer gone, or a message that could not be serialized (sendFailure.ts). */
  private failedSend(method: string, err: unknown): Error {
    return sendFailure(method, err, () => this.crashError, (detail) => this.onPeerGone(detail));
  }

  private onPeerGone(detail: string): void {
    if (this.stateValue === 'stopping' || this.stateValue === 'stopped' || this.stateValue === 'crashed') return;
    this.stateValue = 'crashed';
    this.crashError = new ServerCrashedError(this.options.server.displayName, detail, this.broker !== undefined);
    this.options.logger.warn(this.crashError.message);
    for (const p of [...this.pending]) p.reject(this.crashError);
    this.relayed.clear();
    this.documents.clear();
    this.events.crash.fire(this.crashError);
    void this.options.transport.terminate(0);
  }

  /** Graceful stop (shutdown + exit, unless `ask` is false), then the process group is ended whatever happened. */
  async shutdown({ ask = true }: { ask?: boolean } = {}): Promise<void> {
    if (this.stateValue === 'stopped') return;
    const wasAlive = this.isAlive;
    this.stateValue = 'stopping';
    if (wasAlive && ask) {
      try {
        await this.request('shutdown', null, { timeoutMs: 3000 });
        await this.rpc.sendNotification('exit');
      } catch {
        // A server that does not answer shutdown is ended below.
      }
    }
    const closed = new ConnectionClosedError(this.options.server.displayName);
    for (const p of [...this.pending]) p.reject(closed);
    this.relayed.clear();
    await this.options.transport.terminate(wasAlive ? 2000 : 0);
    this.stateValue = 'stopped';
    this.rpc.dispose();
    this.diagnostics.dispose();
    this.disposables.dispose();
  }

  dispose(): void {
    void this.shutdown();
  }
}
