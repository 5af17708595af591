import type { Socket } from 'node:net';
import {
  createMessageConnection,
  ResponseError,
  SocketMessageReader,
  SocketMessageWriter,
  type CancellationToken,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
  InitializeResult,
  Registration,
} from 'vscode-languageserver-protocol';
import { BrokerStopNotification, WireError, type AgentLspExperimental } from '@agent-lsp/protocol';
import type { LspConnection, Logger } from '@agent-lsp/lsp';
import type { SharedDocuments } from './sharedDocuments.js';

/** What a client session needs from its broker. */
export interface BrokerHost {
  readonly logger: Logger;
  readonly documents: SharedDocuments;
  /** Resolves once the server is initialized (not necessarily indexed). */
  server(): Promise<LspConnection>;
  experimental(): AgentLspExperimental;
  touch(): void;
  stop(reason: string): Promise<void>;
  removeClient(session: ClientSession): void;
}

/** Long: the client decides when to give up (it cancels); this only bounds a forgotten request. */
const FORWARD_TIMEOUT_MS = 60 * 60_000;

function toSignal(token: CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

/** Dynamic registrations that have a static capability field, folded into the capabilities. */
function withRegistrations(result: InitializeResult, registrations: Registration[]): InitializeResult {
  const capabilities = { ...result.capabilities } as Record<string, unknown>;
  for (const r of registrations) {
    if (r.method === 'textDocument/diagnostic' && capabilities['diagnosticProvider'] === undefined) {
      capabilities['diagnosticProvider'] = r.registerOptions ?? { interFileDependencies: true, workspaceDiagnostics: false };
    }
  }
  return { ...result, capabilities: capabilities as InitializeResult['capabilities'] };
}

/**
 * One client on the broker's socket, speaking plain LSP. Its requests go to the server under the
 * broker's own ids (the connection assigns them), concurrently; its cancels follow them.
 */
export class ClientSession {
  private readonly rpc: MessageConnection;
  private closed = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly host: BrokerHost,
  ) {
    this.rpc = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    this.install();
    this.rpc.onClose(() => this.close());
    this.rpc.onError(([err]) => host.logger.debug(`client ${id}: ${err.message}`));
    socket.on('error', (err) => host.logger.debug(`client ${id} socket: ${err.message}`));
    this.rpc.listen();
  }

  private install(): void {
    const { rpc, host, id } = this;
    rpc.onRequest('initialize', async () => {
      const server = await host.server();
      const result = withRegistrations(server.initializeResult ?? { capabilities: {} }, server.dynamicRegistrations());
      return {
        ...result,
        capabilities: { ...result.capabilities, experimental: { ...(result.capabilities.experimental as object), agentLsp: host.experimental() } },
      };
    });
    rpc.onNotification('initialized', async () => {
      // Replay what the server registered dynamically, so every client learns of it.
      const registrations = (await host.server()).dynamicRegistrations();
      if (registrations.length > 0) {
        rpc.sendRequest('client/registerCapability', { registrations }).catch(() => undefined);
      }
    });
    rpc.onRequest('shutdown', () => null);
    rpc.onNotification('exit', () => this.close());
    rpc.onNotification(BrokerStopNotification.method, () => void host.stop(`stop requested by client ${id}`));
    rpc.onNotification('textDocument/didOpen', (p: DidOpenTextDocumentParams) => host.documents.didOpen(id, p));
    rpc.onNotification('textDocument/didChange', (p: DidChangeTextDocumentParams) => host.documents.didChange(id, p));
    rpc.onNotification('textDocument/didClose', (p: DidCloseTextDocumentParams) => host.documents.didClose(id, p));
    rpc.onRequest(async (method: string, params: unknown, token: CancellationToken) => {
      host.touch();
      const server = await host.server();
      try {
        return await server.request(method, params, { signal: toSignal(token), timeoutMs: FORWARD_TIMEOUT_MS });
      } catch (err) {
        if (err instanceof WireError) return new ResponseError(err.code, err.message, err.data);
        return new ResponseError(-32603, (err as Error).message);
      }
    });
    rpc.onNotification((method: string, params: unknown) => {
      host.touch();
      void host.server().then((server) => server.notify(method, params));
    });
  }

  notify(method: string, params: unknown): void {
    if (this.closed) return;
    this.rpc.sendNotification(method, params).catch(() => undefined);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.rpc.dispose();
    this.socket.destroy();
    this.host.removeClient(this);
  }
}
