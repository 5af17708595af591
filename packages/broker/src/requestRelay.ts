import { ErrorCodes } from '@agent-lsp/protocol';
import { Message, ResponseError, type MessageWriter, type NotificationMessage, type RequestMessage, type ResponseMessage } from 'vscode-jsonrpc/node';

/**
 * Passes a request on and settles with its answer: the result, or a ResponseError to send back
 * (it never rejects with anything else). `signal` aborts when the client cancels or goes.
 */
export type Forward = (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>;

type ClientId = number | string;

/**
 * A client's requests that the broker only passes on to the server, taken off its reader before
 * its MessageConnection (a MessageTap, see tapMessages) and answered through the client's message
 * writer under the client's own id. The requests the broker answers itself (`answersItself`) and
 * everything else stay the connection's. A `$/cancelRequest` naming a request in flight here
 * aborts it (the forward cancels it at the server under the id the server knows); one naming any
 * other id is the connection's.
 */
export class RequestRelay {
  private readonly inFlight = new Map<ClientId, AbortController>();
  private closed = false;

  constructor(
    private readonly writer: MessageWriter,
    private readonly answersItself: (method: string) => boolean,
    private readonly forward: Forward,
  ) {}

  /** A MessageTap. */
  readonly take = (message: Message): boolean => {
    if (Message.isRequest(message)) {
      if (this.answersItself(message.method)) return false;
      this.relay(message);
      return true;
    }
    if (Message.isNotification(message) && message.method === '$/cancelRequest') {
      // The envelope was checked on the way in (checkedReader): params is {id: number | string}.
      const controller = this.inFlight.get((message as NotificationMessage & { params: { id: ClientId } }).params.id);
      controller?.abort();
      return controller !== undefined;
    }
    return false;
  };

  /** Requests being passed on (not yet answered). */
  get size(): number {
    return this.inFlight.size;
  }

  /** The client is gone: whatever it still has in flight here is aborted, and nothing more is taken. */
  close(): void {
    this.closed = true;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
  }

  private relay(request: RequestMessage): void {
    // Message.isRequest: a request's id is a number or a string.
    const id = request.id as ClientId;
    if (this.closed) return;
    if (this.inFlight.has(id)) {
      // One answer per id: a second request under the id of one in flight could not be told apart.
      this.answer(id, new ResponseError(ErrorCodes.InvalidRequest, `request id ${JSON.stringify(id)} is already in flight`));
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    void this.forward(request.method, request.params, controller.signal).then(
      (outcome) => {
        // Answered only while this request still holds its id (close() gives every id up).
        if (this.inFlight.get(id) !== controller) return;
        this.inFlight.delete(id);
        this.answer(id, outcome);
      },
      (err: unknown) => {
        if (this.inFlight.get(id) !== controller) return;
        this.inFlight.delete(id);
        this.answer(id, new ResponseError(ErrorCodes.InternalError, err instanceof Error ? err.message : String(err)));
      },
    );
  }

  /** The response vscode-jsonrpc's connection would write for a handler's outcome. */
  private answer(id: ClientId, outcome: unknown): void {
    const response: ResponseMessage = { jsonrpc: '2.0', id };
    if (outcome instanceof ResponseError) response.error = outcome.toJson();
    else response.result = outcome === undefined ? null : (outcome as ResponseMessage['result']);
    // A client that went away cannot be answered; its socket's close ends the session.
    this.writer.write(response).catch(() => undefined);
  }
}
