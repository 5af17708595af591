import type { Socket } from 'node:net';
import {
  createMessageConnection,
  ResponseError,
  type Disposable,
  type MessageConnection,
  type NotificationType,
} from 'vscode-jsonrpc/node';
import type {
  DidChangeTextDocumentParams,
  DidChangeWatchedFilesParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
  DidChangeWorkspaceFoldersParams,
  InitializeParams,
} from 'vscode-languageserver-protocol';
import {
  BrokerAcquireRequest,
  BrokerDocumentStatusRequest,
  BrokerSettledDiagnosticsRequest,
  type BrokerSettledDiagnosticsResult,
  BrokerEpochRequest,
  type BrokerEpochResult,
  BrokerEvictRequest,
  BrokerReleaseRequest,
  BrokerRenewRequest,
  BrokerRestartServerRequest,
  BrokerStatsRequest,
  BrokerStopNotification,
  clientKindOf,
  ErrorCodes,
  WireError,
  type BrokerAcquireResult,
  type BrokerClientInfo,
  type BrokerRestartServerResult,
} from '@agent-lsp/protocol';
import { InlineMessageReader, tapMessages, wholeMessageWriter } from '@agent-lsp/lsp';
import { guardedStream } from './frameGuard.js';
import { settledForClient } from './settledForClient.js';
import {
  checkAcquire,
  checkDidChange,
  checkDidChangeWatchedFiles,
  checkDidChangeWorkspaceFolders,
  checkDidClose,
  checkDidOpen,
  checkedReader,
  checkInitialize,
  checkLease,
  type Problem,
} from './clientMessages.js';
import { ServerProgressTokens, type ProgressNotice } from './progressTokens.js';
import type { BrokerHost } from './brokerHost.js';
import { withRegistrations } from './initializeAnswer.js';
import { RequestRelay } from './requestRelay.js';
import { ForwardedRequests } from './forwardedRequests.js';

/** A request whose params do not fit is answered with InvalidParams. */
function invalidParams(problem: Problem): void {
  if (problem) throw new ResponseError(ErrorCodes.InvalidParams, problem);
}

/**
 * One client on the broker's socket, speaking plain LSP. Its requests go to the server under the
 * broker's own ids (relayed beside both MessageConnections, see RequestRelay and
 * LspConnection.relayRequest), concurrently; its cancels follow them; its progress tokens are
 * namespaced so that progress reaches only it.
 */
export class BrokerClient {
  private readonly rpc: MessageConnection;
  /** The requests it only passes on to the server, beside the connection (see RequestRelay). */
  private readonly relay: RequestRelay;
  /** Methods of the requests the broker answers itself (handlers on `rpc`). */
  private readonly answered = new Set<string>();
  private closed = false;
  private readonly requests: ForwardedRequests;
  /**
   * Messages are dispatched to the server one after another, in arrival order (a request is sent
   * before a later didChange is applied), while their answers may come back in any order.
   */
  private dispatchChain: Promise<void> = Promise.resolve();
  private initialized = false;
  /** Whether the client said it can pull diagnostics; if not, the broker pushes to it. */
  canPull = false;
  /** The server's own progress this client was told to create (see relayServerProgress). */
  private readonly serverProgress = new ServerProgressTokens((token) => this.request('window/workDoneProgress/create', { token }));
  /** Who this client is, for daemon-status (an editor until its initialize says otherwise). */
  readonly info: BrokerClientInfo = { kind: 'editor', since: new Date().toISOString() };
  /** It sent initialize: a real client (fronts, editors), not a probe or an eviction request. */
  identified = false;
  /** It asked for an eviction: its coming and going is not activity. */
  evictor = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly host: BrokerHost<BrokerClient>,
  ) {
    const guarded = guardedStream(socket, (reason) => {
      host.logger.warn(`client ${id} sent a bad frame (${reason}); closing that client`);
      this.close();
    });
    const reader = checkedReader(new InlineMessageReader(guarded), (problem) => this.refuse(problem));
    // A body that is not JSON (or a read error) is this client's fault: it goes, the others stay.
    reader.onError((err) => {
      host.logger.warn(`client ${id} sent an unreadable message (${err.message}); closing that client`);
      this.close();
    });
    // One writer for both, so that what the connection and the relay write keeps its order.
    const writer = wholeMessageWriter(socket);
    this.requests = new ForwardedRequests({ id, tokenPrefix: this.tokenPrefix, isClosed: () => this.closed, dispatch: (step, beside) => this.dispatch(step, true, beside) }, host);
    this.relay = new RequestRelay(writer, (method) => this.answered.has(method), (method, params, signal) => this.requests.forward(method, params, signal));
    const tapped = tapMessages(reader, this.relay.take);
    this.rpc = createMessageConnection(tapped.reader, writer, undefined, tapped.options);
    this.install();
    this.rpc.onClose(() => this.close());
    this.rpc.onError(([err]) => host.logger.debug(`client ${id}: ${err.message}`));
    socket.on('error', (err) => host.logger.debug(`client ${id} socket: ${err.message}`));
    this.rpc.listen();
  }

  private identify(params: InitializeParams): void {
    this.identified = true;
    const name = params.clientInfo?.name;
    this.info.kind = clientKindOf(name);
    if (typeof name === 'string') this.info.name = name;
    if (typeof params.processId === 'number') this.info.pid = params.processId;
    this.host.clientIdentified();
  }

  /** Prefix of this client's progress tokens as the server sees them. */
  get tokenPrefix(): string {
    return `agentLsp/c${this.id}/`;
  }

  private install(): void {
    const { rpc, host, id, answered } = this;
    // Every request with a handler here is the broker's to answer; the relay takes all others.
    const onRequest = ((type: string | { method: string }, handler: unknown): Disposable => {
      answered.add(typeof type === 'string' ? type : type.method);
      return (rpc.onRequest as (type: unknown, handler: unknown) => Disposable)(type, handler);
    }) as MessageConnection['onRequest'];
    onRequest('initialize', async (params: InitializeParams) => {
      invalidParams(checkInitialize(params));
      this.canPull = params.capabilities.textDocument?.diagnostic !== undefined;
      this.serverProgress.supported = params.capabilities.window?.workDoneProgress === true;
      this.identify(params);
      // The folders a client starts with are its own, as if it had added them.
      const foldersChanged = Array.isArray(params.workspaceFolders) && host.folders.change(id, { added: params.workspaceFolders });
      const server = await host.server();
      if (foldersChanged) server.setWorkspaceFolders(host.folders.union());
      const result = withRegistrations(server.initializeResult ?? { capabilities: {} }, server.dynamicRegistrations());
      return {
        ...result,
        capabilities: { ...result.capabilities, experimental: { ...(result.capabilities.experimental as object), agentLsp: host.experimental() } },
      };
    });
    rpc.onNotification('initialized', async () => {
      // Replay what the server registered dynamically, so every client learns of it; later
      // registrations are forwarded as they happen (forwardRegistration).
      const registrations = (await host.server()).dynamicRegistrations();
      this.initialized = true;
      if (registrations.length > 0) rpc.sendRequest('client/registerCapability', { registrations }).catch(() => undefined);
    });
    onRequest('shutdown', () => null);
    rpc.onNotification('exit', () => this.close());
    rpc.onNotification(BrokerStopNotification.type, () => void host.stop(`stop requested by client ${id}`));
    onRequest(BrokerEvictRequest.type, (p) => {
      this.evictor = true;
      return host.evict(id, typeof p?.reason === 'string' ? p.reason : 'no reason given');
    });
    rpc.onNotification('textDocument/didOpen', (p: DidOpenTextDocumentParams) => {
      if (this.refused(checkDidOpen(p))) return;
      return this.dispatch(() => {
        host.lease.noteChange(id, p.textDocument.uri);
        const held = host.documents.serverVersion(p.textDocument.uri);
        host.documents.didOpen(id, p);
        if (held !== undefined && host.documents.serverVersion(p.textDocument.uri) === held) host.diagnosticsOnOpen(this, p.textDocument.uri);
      });
    });
    rpc.onNotification('textDocument/didChange', (p: DidChangeTextDocumentParams) => {
      if (this.refused(checkDidChange(p))) return;
      return this.dispatch(() => {
        host.lease.noteChange(id, p.textDocument.uri);
        host.documents.didChange(id, p);
      });
    });
    rpc.onNotification('textDocument/didClose', (p: DidCloseTextDocumentParams) => {
      if (this.refused(checkDidClose(p))) return;
      return this.dispatch(() => {
        host.lease.noteChange(id, p.textDocument.uri);
        host.documents.didClose(id, p);
      });
    });
    // Exclusive sections. Acquire and release take their turn in this client's order; renew and
    // stats are answered at once (stats also while another client holds the lease).
    onRequest(BrokerAcquireRequest.type, async (p) => {
      invalidParams(checkAcquire(p));
      let granted: BrokerAcquireResult | undefined;
      await this.dispatch(async () => {
        granted = await host.lease.acquire(id, p?.leaseMs);
      }, false);
      if (!granted) throw new WireError(ErrorCodes.InternalError, 'the lease was not granted');
      return granted;
    });
    onRequest(BrokerReleaseRequest.type, async (p) => {
      invalidParams(checkLease(BrokerReleaseRequest.method, p));
      await this.dispatch(() => host.lease.release(id, p.leaseId), false);
      return null;
    });
    onRequest(BrokerRenewRequest.type, (p) => {
      invalidParams(checkLease(BrokerRenewRequest.method, p));
      return host.lease.renew(id, p.leaseId, p.leaseMs);
    });
    onRequest(BrokerStatsRequest.type, () => host.lease.stats());
    onRequest(BrokerDocumentStatusRequest.type, (p) => ({ otherTexts: host.documents.otherTexts(id, p.uri) }));
    // In this client's order and outside others' sections (a push of their overlays settles nothing for it).
    onRequest(BrokerSettledDiagnosticsRequest.type, async (p) => {
      let result: BrokerSettledDiagnosticsResult | null = null;
      await this.dispatch(async () => (result = settledForClient(await host.serverForRequest(), host.documents.clientDocument(id, p.uri), p.uri)));
      return result;
    });
    // After this client's earlier messages and the watcher's news, like a forwarded request.
    onRequest(BrokerEpochRequest.type, async () => {
      let result: BrokerEpochResult = { epoch: 0, watching: false };
      await this.dispatch(async () => {
        const server = await host.serverForRequest();
        result = { epoch: server.changeEpoch, ...(server.pid !== undefined ? { serverPid: server.pid } : {}), watching: host.watching() };
      });
      return result;
    });
    // In this client's order, and not in the middle of another client's exclusive section.
    onRequest(BrokerRestartServerRequest.type, async () => {
      let result: BrokerRestartServerResult = {};
      await this.dispatch(async () => {
        result = await host.restartServer(`restart requested by client ${id}`);
      });
      return result;
    });
    rpc.onNotification('workspace/didChangeWatchedFiles', (p: DidChangeWatchedFilesParams) => {
      if (this.refused(checkDidChangeWatchedFiles(p))) return;
      return this.dispatch(async () => {
        host.clientReportedChanges(p.changes, id);
        (await host.server()).notify('workspace/didChangeWatchedFiles', p);
      });
    });
    // Folders are per client: the server gets the union, each client's answers only its own (and the root).
    rpc.onNotification('workspace/didChangeWorkspaceFolders', (p: DidChangeWorkspaceFoldersParams) => {
      if (this.refused(checkDidChangeWorkspaceFolders(p))) return;
      return this.dispatch(async () => {
        host.touch();
        if (host.folders.change(id, p.event)) (await host.server()).setWorkspaceFolders(host.folders.union());
      });
    });
    rpc.onNotification((method: string, params: unknown) =>
      this.dispatch(async () => {
        host.touch();
        (await host.server()).notify(method, params);
      }),
    );
  }

  /** A notification that does not fit the protocol closes its sender (its documents could not be tracked). */
  private refused(problem: Problem): boolean {
    if (problem) this.refuse(problem);
    return problem !== undefined;
  }

  private refuse(problem: string): void {
    this.host.logger.warn(`client ${this.id} sent ${problem}; closing that client`);
    this.close();
  }

  /**
   * Queues one message's dispatch behind this client's earlier ones; with `gated` (the default)
   * it also waits while another client holds an exclusive section (unless `beside()` lets it go
   * beside that section). Once the client has gone, what
   * it still had queued is dropped: its documents were released and its lease ended when it went,
   * and a didOpen (or an acquire) applied after that would be held by nobody.
   */
  private dispatch(step: () => unknown, gated = true, beside?: () => boolean): Promise<void> {
    // Its place in arrival order, taken now: a lease asked for later does not go ahead of it.
    const ticket = gated ? this.host.lease.arrive(this.id) : undefined;
    const run = async () => {
      try {
        if (ticket !== undefined) await this.host.lease.gate(this.id, ticket, beside);
        if (this.closed) return;
        await step();
      } finally {
        if (ticket !== undefined) this.host.lease.through(ticket);
      }
    };
    const next = this.dispatchChain.then(run);
    this.dispatchChain = next.catch((err: Error) => this.host.logger.debug(`client ${this.id}: ${err.message}`));
    return next;
  }

  /** When this client's latest request of one of these methods started, if one is in flight. */
  inFlightSince(methods: readonly string[]): number | undefined {
    return this.requests.since(methods);
  }

  /** The server stopped answering: every request of this client it holds is answered with `error`. */
  failInFlight(error: WireError): void {
    this.requests.failAll(error);
  }

  get inFlightCount(): number {
    return this.requests.count;
  }

  /** Progress under a token the server created: passed on only if this client was told to create it. */
  relayServerProgress(params: ProgressNotice): void {
    if (this.closed || !this.initialized) return;
    if (this.serverProgress.admit(params)) this.notify('$/progress', params);
  }

  /** A registration change of the server, for a client that has already had the replay. */
  forwardRegistration(method: string, params: unknown): void {
    if (this.closed || !this.initialized) return;
    this.rpc.sendRequest(method, params).catch(() => undefined);
  }

  notify<P>(type: NotificationType<P>, params: P): void;
  notify(method: string, params: unknown): void;
  notify(methodOrType: string | NotificationType<unknown>, params: unknown): void {
    if (this.closed) return;
    const method = typeof methodOrType === 'string' ? methodOrType : methodOrType.method;
    this.rpc.sendNotification(method, params).catch(() => undefined);
  }

  request<R>(method: string, params: unknown): Promise<R> {
    if (this.closed) return Promise.reject(new Error(`client ${this.id} is gone`));
    return this.rpc.sendRequest<R>(method, params);
  }

  /** Ends the session: its in-flight requests are cancelled at the server, its documents released. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    // The relay aborts what it still has in flight: cancelled at the server, or never sent.
    this.relay.close();
    this.requests.clear();
    this.host.scheduler.dropClient(this.id);
    this.rpc.dispose();
    this.socket.destroy();
    this.host.removeClient(this);
  }
}
