import type { Socket } from 'node:net';
import { isAbsolute } from 'node:path';
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
  BrokerEpochRequest,
  type BrokerEpochResult,
  BrokerEvictRequest,
  BrokerReleaseRequest,
  BrokerRenewRequest,
  BrokerRestartServerRequest,
  BrokerStatsRequest,
  BrokerStopNotification,
  clientKindOf,
  DEFAULT_REQUEST_TIMEOUT_MS,
  ErrorCodes,
  pathToUri,
  WireError,
  type BrokerAcquireResult,
  type BrokerClientInfo,
  type BrokerRestartServerResult,
} from '@agent-lsp/protocol';
import { InlineMessageReader, tapMessages, wholeMessageWriter } from '@agent-lsp/lsp';
import { guardedStream } from './frameGuard.js';
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
import { namespaceTokens } from './progressTokens.js';
import { filterAnswer, type FileVisible } from './answerFilter.js';
import type { BrokerHost } from './brokerHost.js';
import { withRegistrations } from './initializeAnswer.js';
import { RequestRelay } from './requestRelay.js';
import { afterCurrentPoll } from './afterPoll.js';

/**
 * The client decides when to give up (its cancel aborts the forwarded request); a client that
 * never does is bounded by the same default our front uses, so both sides time out alike.
 */
const FORWARD_TIMEOUT_MS = DEFAULT_REQUEST_TIMEOUT_MS;
/** Requests a server may hold open until something changes (a long poll): they take no slot of the bound. */
const LONG_POLL_METHODS: readonly string[] = ['workspace/diagnostic'];

interface InFlight {
  method: string;
  startedAt: number;
}

function toResponseError(err: unknown): ResponseError<unknown> {
  if (err instanceof WireError) return new ResponseError(err.code, err.message, err.data);
  return new ResponseError(ErrorCodes.InternalError, err instanceof Error ? err.message : String(err));
}

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
  private nextRequest = 0;
  private readonly inFlight = new Map<number, InFlight>();
  /**
   * Messages are dispatched to the server one after another, in arrival order (a request is sent
   * before a later didChange is applied), while their answers may come back in any order.
   */
  private dispatchChain: Promise<void> = Promise.resolve();
  private initialized = false;
  /** Whether the client said it can pull diagnostics; if not, the broker pushes to it. */
  canPull = false;
  /** Who this client is, for daemon-status (an editor until its initialize says otherwise). */
  readonly info: BrokerClientInfo = { kind: 'editor', since: new Date().toISOString() };
  /** It sent initialize: a real client (fronts, editors), not a probe or an eviction request. */
  identified = false;
  /** It asked for an eviction: its coming and going is not activity. */
  evictor = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly host: BrokerHost,
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
    this.relay = new RequestRelay(writer, (method) => this.answered.has(method), (method, params, signal) => this.forward(method, params, signal));
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
   * it also waits while another client holds an exclusive section.
   */
  private dispatch(step: () => unknown, gated = true): Promise<void> {
    const run = async () => {
      if (gated) await this.host.lease.gate(this.id);
      await step();
    };
    const next = this.dispatchChain.then(run);
    this.dispatchChain = next.catch((err: Error) => this.host.logger.debug(`client ${this.id}: ${err.message}`));
    return next;
  }

  /**
   * Sends a request to the server once this client's earlier messages were dispatched and the
   * scheduler gives it a turn (the server sees a bounded number at once, taken round-robin between
   * clients). A cancel while it waits answers it at once and it is never sent.
   */
  private forward(method: string, params: unknown, cancelled: AbortSignal): Promise<unknown> {
    // Taken as the request is read (the relay takes it in the read callback): the watcher's news
    // up to its arrival is read by then.
    const eventsRead = afterCurrentPoll();
    this.host.touch();
    // `cancelled` is the relay's: it aborts on the client's $/cancelRequest and when the client
    // goes (close() closes the relay); an abort once sent cancels the request at the server under
    // the id the server knows, one before answers at once and the request is never sent.
    return new Promise((resolve) => {
      let sent = false;
      const unsent = (why: string) => resolve(new ResponseError(ErrorCodes.RequestCancelled, `${method} was not sent to the server: ${why}`));
      const onAbort = () => {
        if (!sent) unsent('cancelled');
      };
      cancelled.addEventListener('abort', onAbort, { once: true });
      this.dispatch(async () => {
        if (cancelled.aborted) return unsent('cancelled');
        if (this.closed) return unsent('the client is gone');
        const server = await this.host.serverForRequest(eventsRead);
        const request = {
          client: this.id,
          send: () => {
            sent = true;
            cancelled.removeEventListener('abort', onAbort);
            // Several clients may hold one file with different texts (an editor's unsaved buffer):
            // the server answers this request on this client's text.
            const uri = requestDocumentUri(method, params);
            if (uri !== undefined) this.host.documents.useClientText(this.id, uri);
            const visibleAtSend = this.host.folders.visibility(this.id);
            const key = this.nextRequest++;
            this.inFlight.set(key, { method, startedAt: Date.now() });
            return server
              .relayRequest(method, namespaceTokens(params, this.tokenPrefix), { signal: cancelled, timeoutMs: FORWARD_TIMEOUT_MS })
              .then((result) => resolve(this.ownAnswer(method, result, visibleAtSend)), (err: unknown) => resolve(toResponseError(err)))
              .finally(() => {
                this.inFlight.delete(key);
                this.host.lease.requestSettled();
              });
          },
          drop: (reason: string) => unsent(reason),
        };
        await this.host.scheduler.enqueue(request, cancelled, LONG_POLL_METHODS.includes(method));
      }).catch((err: unknown) => resolve(toResponseError(err)));
    });
  }

  /** The answer without files that lie only in workspace folders other clients added. */
  private ownAnswer(method: string, result: unknown, visibleAtSend: FileVisible | undefined): unknown {
    // Folders may have come or gone while the server worked: a file hidden at either moment stays out.
    const visibleNow = this.host.folders.visibility(this.id);
    if (!visibleAtSend && !visibleNow) return result;
    return filterAnswer(method, result, (path) => (visibleAtSend?.(path) ?? true) && (visibleNow?.(path) ?? true));
  }

  /** When this client's latest request of one of these methods started, if one is in flight. */
  inFlightSince(methods: readonly string[]): number | undefined {
    let latest: number | undefined;
    for (const r of this.inFlight.values()) if (methods.includes(r.method) && (latest === undefined || r.startedAt > latest)) latest = r.startedAt;
    return latest;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
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
    this.inFlight.clear();
    this.host.scheduler.dropClient(this.id);
    this.rpc.dispose();
    this.socket.destroy();
    this.host.removeClient(this);
  }
}

/**
 * The document a request is about: `textDocument.uri` of its params, or the file of a tsserver
 * request passed through typescript-language-server (its exact diagnostics), if any.
 */
function requestDocumentUri(method: string, params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  if (method === 'workspace/executeCommand') {
    const { command, arguments: args } = params as { command?: unknown; arguments?: unknown };
    const file = command === 'typescript.tsserverRequest' && Array.isArray(args) ? (args[1] as { file?: unknown } | undefined)?.file : undefined;
    return typeof file === 'string' && isAbsolute(file) ? pathToUri(file) : undefined;
  }
  const doc = (params as { textDocument?: unknown }).textDocument;
  if (typeof doc !== 'object' || doc === null) return undefined;
  const uri = (doc as { uri?: unknown }).uri;
  return typeof uri === 'string' ? uri : undefined;
}
