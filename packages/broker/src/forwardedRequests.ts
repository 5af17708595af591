import { isAbsolute } from 'node:path';
import { ResponseError } from 'vscode-jsonrpc/node';
import { DEFAULT_REQUEST_TIMEOUT_MS, ErrorCodes, pathToUri, WireError } from '@agent-lsp/protocol';
import { filterAnswer, type FileVisible } from './answerFilter.js';
import { afterCurrentPoll } from './afterPoll.js';
import { BESIDE_LEASE_METHODS } from './besideLease.js';
import type { BrokerHost } from './brokerHost.js';
import { namespaceTokens } from './progressTokens.js';

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
  /** Answers it with `error` now and cancels it at the server (which may never answer). */
  fail(error: WireError): void;
}

function toResponseError(err: unknown): ResponseError<unknown> {
  if (err instanceof WireError) return new ResponseError(err.code, err.message, err.data);
  return new ResponseError(ErrorCodes.InternalError, err instanceof Error ? err.message : String(err));
}

/** What forwarding needs of the client whose requests it forwards. */
export interface ForwardingClient {
  readonly id: number;
  /** Prefix of its progress tokens as the server sees them. */
  readonly tokenPrefix: string;
  isClosed(): boolean;
  /**
   * Runs `step` once its earlier messages were dispatched (and no one else's lease holds it, or
   * `beside()` lets it go beside that lease).
   */
  dispatch(step: () => unknown, beside?: () => boolean): Promise<void>;
}

/**
 * One client's requests passed on to the server: queued behind its earlier messages and in the
 * fair scheduler, sent on its own text, answered without other clients' folders, and tracked while
 * in flight (a lease's drain, applyEdit routing, a hung server's failure).
 */
export class ForwardedRequests {
  private nextRequest = 0;
  private readonly inFlight = new Map<number, InFlight>();

  constructor(
    private readonly client: ForwardingClient,
    private readonly host: BrokerHost,
  ) {}

  /**
   * Sends a request to the server once this client's earlier messages were dispatched and the
   * scheduler gives it a turn (the server sees a bounded number at once, taken round-robin between
   * clients). A cancel while it waits answers it at once and it is never sent.
   */
  forward(method: string, params: unknown, cancelled: AbortSignal): Promise<unknown> {
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
      // A read of one document may go beside another client's exclusive section (besideLease.ts).
      const uri = requestDocumentUri(method, params);
      const beside = uri !== undefined && BESIDE_LEASE_METHODS.has(method) ? () => this.host.lease.readableBeside(this.client.id, uri) : undefined;
      this.client.dispatch(async () => {
        if (cancelled.aborted) return unsent('cancelled');
        if (this.client.isClosed()) return unsent('the client is gone');
        const server = await this.host.serverForRequest(eventsRead);
        const request = {
          client: this.client.id,
          send: () => {
            sent = true;
            cancelled.removeEventListener('abort', onAbort);
            // A server that answers nothing would hold this request until the timeout: it fails now.
            const hung = this.host.unresponsive();
            if (hung) {
              resolve(toResponseError(hung));
              return Promise.resolve();
            }
            // Several clients may hold one file with different texts (an editor's unsaved buffer):
            // the server answers this request on this client's text.
            if (uri !== undefined) this.host.documents.useClientText(this.client.id, uri);
            const visibleAtSend = this.host.folders.visibility(this.client.id);
            const key = this.nextRequest++;
            const failed = new AbortController();
            const fail = (error: WireError) => {
              resolve(toResponseError(error));
              failed.abort();
            };
            this.inFlight.set(key, { method, startedAt: Date.now(), fail });
            return server
              .relayRequest(method, namespaceTokens(params, this.client.tokenPrefix), { signal: AbortSignal.any([cancelled, failed.signal]), timeoutMs: FORWARD_TIMEOUT_MS })
              .then((result) => resolve(this.ownAnswer(method, result, visibleAtSend)), (err: unknown) => resolve(toResponseError(err)))
              .finally(() => {
                this.inFlight.delete(key);
                this.host.lease.requestSettled();
              });
          },
          drop: (reason: string) => unsent(reason),
          ...(beside ? { beside } : {}),
        };
        await this.host.scheduler.enqueue(request, cancelled, LONG_POLL_METHODS.includes(method));
      }, beside).then(
        // Dropped unrun (the client went while it waited): answered, though nobody may read it.
        () => void (sent || unsent('the client is gone')),
        (err: unknown) => resolve(toResponseError(err)),
      );
    });
  }

  /** The answer without files that lie only in workspace folders other clients added. */
  private ownAnswer(method: string, result: unknown, visibleAtSend: FileVisible | undefined): unknown {
    // Folders may have come or gone while the server worked: a file hidden at either moment stays out.
    const visibleNow = this.host.folders.visibility(this.client.id);
    if (!visibleAtSend && !visibleNow) return result;
    return filterAnswer(method, result, (path) => (visibleAtSend?.(path) ?? true) && (visibleNow?.(path) ?? true));
  }

  /** When this client's latest request of one of these methods started, if one is in flight. */
  since(methods: readonly string[]): number | undefined {
    let latest: number | undefined;
    for (const r of this.inFlight.values()) if (methods.includes(r.method) && (latest === undefined || r.startedAt > latest)) latest = r.startedAt;
    return latest;
  }

  /** The server stopped answering: every request of this client it holds is answered with `error`. */
  failAll(error: WireError): void {
    for (const r of [...this.inFlight.values()]) r.fail(error);
  }

  get count(): number {
    return this.inFlight.size;
  }

  /** The client is gone: nothing of its is tracked any more. */
  clear(): void {
    this.inFlight.clear();
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
