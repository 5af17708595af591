import { Message, ResponseError, type CancellationToken, type MessageWriter, type RequestMessage, type ResponseMessage } from 'vscode-jsonrpc/node';

/**
 * Ids of relayed requests: strings with this prefix, which never meet the numbers the
 * MessageConnection allocates for its own requests on the same stream.
 */
export const RELAY_ID_PREFIX = 'agentLsp/relay/';

/**
 * Requests sent to the peer beside the MessageConnection, straight through its message writer
 * (same framing, same write order), for a broker that only passes a client's request on: no
 * response promise map, cancellation strategy or handler plumbing of the connection. Their
 * responses are taken off the reader before the connection sees them (`take`, a MessageTap); a
 * cancel goes to the peer as `$/cancelRequest` with the relayed id.
 */
export class RelayedRequests {
  private next = 0;
  private readonly waiting = new Map<string, (response: ResponseMessage) => void>();

  constructor(private readonly writer: MessageWriter) {}

  /**
   * Sends one request; resolves with its result, rejects with the peer's ResponseError or the
   * write's failure. A cancel of `token` tells the peer; the caller decides when to stop waiting.
   */
  send(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
    const id = `${RELAY_ID_PREFIX}${this.next++}`;
    const message: RequestMessage = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params as RequestMessage['params'];
    return new Promise((resolve, reject) => {
      const cancelled = token.onCancellationRequested(() => {
        if (this.waiting.has(id)) void this.writer.write({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } } as Message).catch(() => undefined);
      });
      const settle = () => {
        this.waiting.delete(id);
        cancelled.dispose();
      };
      this.waiting.set(id, (response) => {
        settle();
        if (response.error) reject(new ResponseError(response.error.code, response.error.message, response.error.data));
        else resolve(response.result === undefined ? null : response.result);
      });
      this.writer.write(message).catch((err: unknown) => {
        settle();
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  /** A MessageTap: the response to a relayed request goes to its sender, not the connection. */
  readonly take = (message: Message): boolean => {
    if (!Message.isResponse(message) || typeof message.id !== 'string' || !message.id.startsWith(RELAY_ID_PREFIX)) return false;
    // A late answer (the request was given up) is dropped here too: the connection never knew its id.
    this.waiting.get(message.id)?.(message);
    return true;
  };

  /** Forgets every request waiting (the peer is gone; their callers were told already). */
  clear(): void {
    this.waiting.clear();
  }
}
